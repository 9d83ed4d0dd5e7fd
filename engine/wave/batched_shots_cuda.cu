// The batched CUDA step (batched_shots.hpp): B members of one model, state [node][component][member].
//
// One kernel a step, node-centred and without atomics. Thread t of a block is member m = t % B at
// x position p = t / B of the block's tile; consecutive threads are consecutive members of the
// same node, so every load of u, u- and u+ is one coalesced access for the whole batch, and the
// material id, the node's update factors and all index arithmetic are shared by the batch (the
// same address across the lanes: one broadcast). A block owns the node row j of NP - 1 node
// columns and sweeps a chunk of z planes. At each element plane the thread at position p computes
// the two elements of column x0 + p - 1 that touch node row j (rows j - 1 and j), keeps their
// forces on its own node column and hands those on column x0 + p to position p + 1 through shared
// memory; the forces on the node plane above are carried in registers to the next plane. When a
// node plane is complete its owner applies the central difference (central_difference_node, as
// the CPU engine) and writes u+ to a third buffer (other blocks still read u and u-). Each
// element is computed twice (by the blocks of both its node rows) plus one column and one plane
// of halo per block, in exchange for no atomics and no force array in memory.
//
// After the step, a point kernel adds each member's sources to u+ (atomics: a probe's elements
// share nodes) and another records the receivers (u^n and (u^{n+1} - u^{n-1}) / 2 dt); samples go
// to the host every kBatchSteps steps.
#include <algorithm>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "wave/batched_shots.hpp"
#include "wave/central_difference.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

using cuda::DeviceBuffer;

constexpr int kBlockThreads = 256;
constexpr int kPlanesPerBlock = 32;
constexpr std::int64_t kBatchSteps = 256;

template <class Real>
struct BatchedStepArgs {
    int nx, ny, nz;  // elements per axis
    int members, positions;
    const unsigned char* ids;
    const Real* lambda;  // [256] by material id
    const Real* mu;
    Real s0, s1, s2;  // mode scales
    const Real* a;    // dt^2/m per node
    const Real* ih;   // 1 / (1 + h) per node, or null (uniform: ih0)
    const Real* mh;   // 1 - h per node, or null (uniform: mh0)
    Real ih0, mh0;
    Real keep, b;  // w = keep u - b u-
    const Real* u;
    const Real* um;
    Real* up;
};

template <class Real, bool Damped>
__global__ void __launch_bounds__(kBlockThreads, 2) batched_step_kernel(BatchedStepArgs<Real> a) {
    extern __shared__ __align__(16) unsigned char smem_raw[];
    Real* handoff = reinterpret_cast<Real*>(smem_raw);  // [2][blockDim.x][6]
    const int B = a.members;
    const int t = int(threadIdx.x);
    const int m = t % B, p = t / B;
    const bool active = p < a.positions;  // the last partial position's threads only join barriers
    const int x0 = int(blockIdx.x) * (a.positions - 1);
    const int ex = x0 + p - 1;  // this thread's element column, and its own node column
    const int j = int(blockIdx.y);
    const int nx = a.nx, ny = a.ny, nz = a.nz;
    const std::size_t nx1 = std::size_t(nx) + 1, plane = nx1 * std::size_t(ny + 1);
    const bool owner = active && p >= 1 && ex >= 0 && ex <= nx;
    const bool elem_lo = active && ex >= 0 && ex < nx && j >= 1;  // element (ex, j - 1)
    const bool elem_hi = active && ex >= 0 && ex < nx && j < ny;  // element (ex, j)
    const int k0 = int(blockIdx.z) * kPlanesPerBlock, k1 = min(k0 + kPlanesPerBlock, nz + 1);
    const int ks = k0 > 0 ? k0 - 1 : k0;

    // w of node columns ex, ex + 1 and rows j - 1, j, j + 1 at one node plane; u, u- of the own node.
    auto load_plane = [&](int k, Real(&w)[2][3][3], Real(&uo)[3], Real(&umo)[3]) {
#pragma unroll
        for (int col = 0; col < 2; ++col)
#pragma unroll
            for (int r = 0; r < 3; ++r) {
                const int x = ex + col, y = j - 1 + r;
                const bool in = active && k <= nz && x >= 0 && x <= nx && y >= 0 && y <= ny;
                const std::size_t base =
                    in ? ((std::size_t(k) * plane + std::size_t(y) * nx1 + std::size_t(x)) * 3) * std::size_t(B) + m
                       : 0;
#pragma unroll
                for (int c = 0; c < 3; ++c) {
                    const Real uu = in ? a.u[base + std::size_t(c) * B] : Real(0);
                    const Real pp =
                        (in && (Damped || (col == 0 && r == 1))) ? a.um[base + std::size_t(c) * B] : Real(0);
                    w[col][r][c] = Damped ? damped_operand(uu, pp, a.keep, a.b) : uu;
                    if (col == 0 && r == 1) {
                        uo[c] = uu;
                        umo[c] = pp;
                    }
                }
            }
    };

    Real wlo[2][3][3], whi[2][3][3], ulo[3], umlo[3], uhi[3], umhi[3];
    load_plane(ks, whi, uhi, umhi);
    Real carry[3] = {0, 0, 0};
    for (int k = ks; k < k1; ++k) {
#pragma unroll
        for (int col = 0; col < 2; ++col)
#pragma unroll
            for (int r = 0; r < 3; ++r)
#pragma unroll
                for (int c = 0; c < 3; ++c) wlo[col][r][c] = whi[col][r][c];
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            ulo[c] = uhi[c];
            umlo[c] = umhi[c];
        }
        load_plane(k + 1, whi, uhi, umhi);
        // S[x side][z side][component]: the forces of elements (ex, j - 1) and (ex, j) on node row j.
        Real S[2][2][3];
#pragma unroll
        for (int xa = 0; xa < 2; ++xa)
#pragma unroll
            for (int zc = 0; zc < 2; ++zc)
#pragma unroll
                for (int c = 0; c < 3; ++c) S[xa][zc][c] = Real(0);
        if (k < nz) {
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                if (!(e == 0 ? elem_lo : elem_hi)) continue;
                const int ey = j - 1 + e;
                const unsigned char id = a.ids[(std::size_t(k) * std::size_t(ny) + std::size_t(ey)) * nx + ex];
                if (id == 0) continue;
                Real ue[24], fe[24];
#pragma unroll
                for (int zc = 0; zc < 2; ++zc)
#pragma unroll
                    for (int yb = 0; yb < 2; ++yb)
#pragma unroll
                        for (int xa = 0; xa < 2; ++xa)
#pragma unroll
                            for (int c = 0; c < 3; ++c)
                                ue[3 * voxel_local_node(xa, yb, zc) + c] =
                                    zc == 0 ? wlo[xa][e + yb][c] : whi[xa][e + yb][c];
                voxel_element_force<Real>(ue, __ldg(a.lambda + id), __ldg(a.mu + id), a.s0, a.s1, a.s2, fe);
                // Row j is the element's upper y side (yb = 1) for (ex, j - 1), its lower one for (ex, j).
                const int yb = e == 0 ? 1 : 0;
#pragma unroll
                for (int xa = 0; xa < 2; ++xa)
#pragma unroll
                    for (int zc = 0; zc < 2; ++zc)
#pragma unroll
                        for (int c = 0; c < 3; ++c) S[xa][zc][c] += fe[3 * voxel_local_node(xa, yb, zc) + c];
            }
        }
        Real* mine = handoff + (std::size_t(k & 1) * blockDim.x + t) * 6;
#pragma unroll
        for (int zc = 0; zc < 2; ++zc)
#pragma unroll
            for (int c = 0; c < 3; ++c) mine[3 * zc + c] = S[1][zc][c];
        __syncthreads();
        Real from_left[6] = {0, 0, 0, 0, 0, 0};
        if (p >= 1) {
            const Real* left = handoff + (std::size_t(k & 1) * blockDim.x + (t - B)) * 6;
#pragma unroll
            for (int i = 0; i < 6; ++i) from_left[i] = left[i];
        }
        Real f[3];
#pragma unroll
        for (int c = 0; c < 3; ++c) {
            f[c] = carry[c] + S[0][0][c] + from_left[c];
            carry[c] = S[0][1][c] + from_left[3 + c];
        }
        if (k >= k0 && owner) {
            const std::size_t node = std::size_t(k) * plane + std::size_t(j) * nx1 + std::size_t(ex);
            const Real an = __ldg(a.a + node);
            const Real ih = a.ih ? __ldg(a.ih + node) : a.ih0, mh = a.mh ? __ldg(a.mh + node) : a.mh0;
            const std::size_t base = node * 3 * std::size_t(B) + m;
#pragma unroll
            for (int c = 0; c < 3; ++c)
                a.up[base + std::size_t(c) * B] = central_difference_node(ulo[c], umlo[c], an * f[c], mh, ih);
        }
    }
}

template <class Real>
__global__ void batched_sources_kernel(int count, const long long* index, const Real* scale, const Real* force,
                                       int members, Real* up) {
    const int s = int(blockIdx.x) * blockDim.x + int(threadIdx.x);
    if (s >= 3 * count) return;
    const int src = s / 3, c = s % 3;
    atomicAdd(up + index[src] + std::size_t(c) * members, scale[src] * force[s]);
}

template <class Real>
__global__ void batched_receivers_kernel(int count, const long long* index, int members, const Real* prev,
                                         const Real* cur, const Real* next, double inv_2dt, double* out) {
    const int s = int(blockIdx.x) * blockDim.x + int(threadIdx.x);
    if (s >= 3 * count) return;
    const int r = s / 3, c = s % 3;
    const std::size_t i = std::size_t(index[r]) + std::size_t(c) * members;
    out[std::size_t(r) * 6 + c] = double(cur[i]);
    out[std::size_t(r) * 6 + 3 + c] = (double(next[i]) - double(prev[i])) * inv_2dt;
}

int blocks_for(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

template <class Real>
std::vector<ShotTraces> run_group(const WaveProblem& p, const std::vector<const ShotSources*>& group,
                                  const StepProgress& progress) {
    const int B = int(group.size());
    const std::size_t nn = p.grid.node_count(), ne = p.grid.element_count(), state = 3 * nn * std::size_t(B);
    const bool uniform_h = !p.boundary.has_node_damping();
    {
        std::size_t free_b = 0, total_b = 0;
        VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const double need =
            double(3 * state * sizeof(Real) + ne + nn * sizeof(Real) * (uniform_h ? 1 : 3)) + double(64 << 20);
        if (need > double(free_b))
            throw InputError("", "batch",
                             std::to_string(B) + " shots of this model need " + std::to_string(need / (1 << 30)) +
                                 " GiB of GPU memory, the device has " + std::to_string(double(free_b) / (1 << 30)) +
                                 " GiB free: use a smaller batch");
    }
    UpdateCoefficients<Real> coef = update_coefficients<Real>(p);
    DeviceBuffer<unsigned char> ids(p.grid.ids);
    DeviceBuffer<Real> a(coef.dt2_inv_mass), ih, mh;
    if (!uniform_h) {
        ih = DeviceBuffer<Real>(coef.inv_one_plus_h);
        mh = DeviceBuffer<Real>(coef.one_minus_h);
    }
    std::vector<Real> lam(256, Real(0)), mu(256, Real(0));
    for (std::size_t i = 0; i < p.materials.size(); ++i) {
        lam[i + 1] = static_cast<Real>(p.materials[i].lame_lambda());
        mu[i + 1] = static_cast<Real>(p.materials[i].shear_modulus());
    }
    DeviceBuffer<Real> lambda(lam), mu_d(mu);
    DeviceBuffer<Real> bufs[3] = {DeviceBuffer<Real>::zeros(state), DeviceBuffer<Real>::zeros(state),
                                  DeviceBuffer<Real>::zeros(state)};
    Real* prev = bufs[0].get();
    Real* cur = bufs[1].get();
    Real* next = bufs[2].get();

    // Sources and receivers of all members, flattened: index = node 3 B + member (component 0).
    std::vector<long long> sidx, ridx;
    std::vector<Real> sscale;
    std::vector<const SourceTerm*> srcs;
    std::vector<std::size_t> rmember;
    for (int m = 0; m < B; ++m) {
        for (const SourceTerm& s : group[std::size_t(m)]->sources) {
            sidx.push_back(static_cast<long long>(s.node * 3 * std::size_t(B) + std::size_t(m)));
            sscale.push_back(coef.dt2_inv_mass[s.node] * coef.inv_one_plus_h[uniform_h ? 0 : s.node]);
            srcs.push_back(&s);
        }
        for (const ReceiverPoint& r : group[std::size_t(m)]->receivers)
            ridx.push_back(static_cast<long long>(r.node * 3 * std::size_t(B) + std::size_t(m)));
    }
    const std::size_t nsrc = sidx.size(), nrec = ridx.size();
    DeviceBuffer<long long> src_index(sidx), rec_index(ridx);
    DeviceBuffer<Real> src_scale(sscale), src_force(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 3 * nsrc));
    DeviceBuffer<double> rec_out(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 6 * nrec));

    BatchedStepArgs<Real> args{};
    args.nx = p.grid.n[0];
    args.ny = p.grid.n[1];
    args.nz = p.grid.n[2];
    args.members = B;
    args.positions = std::max(2, kBlockThreads / B);
    const int threads = args.positions * B;
    args.ids = ids.get();
    args.lambda = lambda.get();
    args.mu = mu_d.get();
    const ModeScales sc = mode_scales(p.element_method(), p.grid.spacing);
    args.s0 = static_cast<Real>(sc.constant);
    args.s1 = static_cast<Real>(sc.linear);
    args.s2 = static_cast<Real>(sc.bilinear);
    args.a = a.get();
    args.ih = uniform_h ? nullptr : ih.get();
    args.mh = uniform_h ? nullptr : mh.get();
    args.ih0 = coef.inv_one_plus_h.empty() ? Real(1) : coef.inv_one_plus_h[0];
    args.mh0 = coef.one_minus_h.empty() ? Real(1) : coef.one_minus_h[0];
    args.b = static_cast<Real>(p.rayleigh.beta / p.dt);
    args.keep = Real(1) + args.b;
    const bool damped = args.b != Real(0);
    const dim3 grid(unsigned(blocks_for(std::size_t(args.nx) + 1, args.positions - 1)), unsigned(args.ny + 1),
                    unsigned(blocks_for(std::size_t(args.nz) + 1, kPlanesPerBlock)));
    const std::size_t smem = 2 * std::size_t(threads) * 6 * sizeof(Real);

    const std::size_t nt = std::size_t(p.steps);
    std::vector<ShotTraces> out(group.size());
    for (int m = 0; m < B; ++m) {
        const std::size_t nr = group[std::size_t(m)]->receivers.size();
        out[std::size_t(m)].displacement.assign(nr * nt * 3, 0.0);
        out[std::size_t(m)].velocity.assign(nr * nt * 3, 0.0);
    }
    std::vector<Real> forces(std::size_t(kBatchSteps) * 3 * nsrc);
    std::vector<double> samples(std::size_t(kBatchSteps) * 6 * nrec);
    const double inv_2dt = 1.0 / (2.0 * p.dt);
    for (std::int64_t n0 = 0; n0 < p.steps; n0 += kBatchSteps) {
        const std::int64_t nb = std::min(kBatchSteps, p.steps - n0);
        for (std::int64_t s = 0; s < nb; ++s) {
            const double tn = double(n0 + s) * p.dt;
            for (std::size_t q = 0; q < nsrc; ++q) {
                const double w = evaluate_wavelet(srcs[q]->wavelet, tn - srcs[q]->time_shift);
                for (int c = 0; c < 3; ++c)
                    forces[(std::size_t(s) * nsrc + q) * 3 + std::size_t(c)] = static_cast<Real>(srcs[q]->force[c] * w);
            }
        }
        if (nsrc) src_force.upload(forces.data(), std::size_t(nb) * 3 * nsrc);
        for (std::int64_t s = 0; s < nb; ++s) {
            args.u = cur;
            args.um = prev;
            args.up = next;
            if (damped)
                batched_step_kernel<Real, true><<<grid, threads, smem>>>(args);
            else
                batched_step_kernel<Real, false><<<grid, threads, smem>>>(args);
            VOXWAVE_CUDA_CHECK_LAUNCH("batched_step_kernel");
            if (nsrc) {
                batched_sources_kernel<Real><<<blocks_for(3 * nsrc, 256), 256>>>(
                    int(nsrc), src_index.get(), src_scale.get(), src_force.get() + std::size_t(s) * 3 * nsrc, B, next);
                VOXWAVE_CUDA_CHECK_LAUNCH("batched_sources_kernel");
            }
            if (nrec) {
                batched_receivers_kernel<Real><<<blocks_for(3 * nrec, 256), 256>>>(
                    int(nrec), rec_index.get(), B, prev, cur, next, inv_2dt, rec_out.get() + std::size_t(s) * 6 * nrec);
                VOXWAVE_CUDA_CHECK_LAUNCH("batched_receivers_kernel");
            }
            Real* const old = prev;
            prev = cur;
            cur = next;
            next = old;
        }
        if (nrec)
            rec_out.download(samples.data(), std::size_t(nb) * 6 * nrec);
        else
            VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        std::size_t r0 = 0;
        for (int m = 0; m < B; ++m) {
            ShotTraces& tr = out[std::size_t(m)];
            const std::size_t nr = group[std::size_t(m)]->receivers.size();
            for (std::int64_t s = 0; s < nb; ++s) {
                const std::size_t t = std::size_t(n0 + s);
                for (std::size_t r = 0; r < nr; ++r)
                    for (int c = 0; c < 3; ++c) {
                        const double* smp = samples.data() + (std::size_t(s) * nrec + r0 + r) * 6;
                        tr.displacement[(r * nt + t) * 3 + std::size_t(c)] = smp[c];
                        tr.velocity[(r * nt + t) * 3 + std::size_t(c)] = smp[3 + c];
                    }
            }
            r0 += nr;
        }
        if (progress)
            for (std::int64_t s = 0; s < nb; ++s)
                if (!progress(n0 + s + 1)) throw Cancelled{};
    }
    return out;
}

}  // namespace

std::vector<ShotTraces> run_shot_group_cuda(const WaveProblem& model, const std::vector<const ShotSources*>& group,
                                            const StepProgress& progress, int device, std::string* device_name) {
    const std::string why = batched_shots_unsupported(model, Backend::Cuda);
    if (!why.empty()) throw RuntimeError("run_shot_group_cuda: " + why);
    if (group.empty()) return {};
    if (group.size() > std::size_t(kBlockThreads / 2))
        throw InputError("", "batch", "at most " + std::to_string(kBlockThreads / 2) + " shots a group on the GPU");
    const CudaDeviceInfo dev = cuda_device_for_run(device);
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    if (device_name) *device_name = dev.name;
    return model.precision == Precision::Fp64 ? run_group<double>(model, group, progress)
                                              : run_group<float>(model, group, progress);
}

}  // namespace voxwave
