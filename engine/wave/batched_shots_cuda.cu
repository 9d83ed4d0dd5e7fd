// The batched CUDA step (batched_shots.hpp): B members of one model on one device.
//
// Each member's state is a single run's ([member][component][node], component-major per member)
// and a step runs the fused single-shot kernel (fused_step.cuh: one sweep, forces kept on chip,
// sources added and receivers sampled in the same kernel) once per member, back to back on one
// stream, with the model's tables (material ids, Lame constants, dt^2/m, the sponge's factors)
// uploaded once and read by every member. Not the batch inside one kernel: per member it would
// move the same state (72 B a node in FP64) and do the same element work, and G members a tile
// need G times the fused kernel's on-chip room or a tile G times smaller (the bytes and the
// resources: docs/architecture.md#batched-shots; the member-lane kernel this replaces computed
// each element 2.3 times and ran at 0.92x of the single runs).
//
// The receivers' u^n come back from the kernel's samples, u^N from a gather after the last step,
// and the velocity is (u^{n+1} - u^{n-1}) / 2 dt as the single CUDA run makes it.
#include <algorithm>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "wave/batched_shots.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wave_kernel_args.cuh"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

using cuda::DeviceBuffer;

// Steps whose source forces go up and whose receiver samples come back in one copy.
constexpr std::int64_t kBatchSteps = 256;

// u at the receivers after the last step: out[r * 3 + c] = u[index[r] + c nn] (index: the
// member's first component's offset plus the node).
template <class Real>
__global__ void batched_gather_kernel(int count, const long long* index, std::size_t nn, const Real* u, double* out) {
    const int s = int(blockIdx.x) * blockDim.x + int(threadIdx.x);
    if (s >= 3 * count) return;
    const int r = s / 3, c = s % 3;
    out[s] = double(u[std::size_t(index[r]) + std::size_t(c) * nn]);
}

int blocks_for(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

template <class Real>
std::vector<ShotTraces> run_group(const WaveProblem& p, const std::vector<const ShotSources*>& group,
                                  const StepProgress& progress) {
    const std::size_t B = group.size();
    const std::size_t nn = p.grid.node_count(), ne = p.grid.element_count(), member = 3 * nn;
    const bool uniform_h = !p.boundary.has_node_damping();
    {
        std::size_t free_b = 0, total_b = 0;
        VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
        const double need =
            double(3 * member * B * sizeof(Real) + ne + nn * sizeof(Real) * (uniform_h ? 1 : 3)) + double(64 << 20);
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
    DeviceBuffer<Real> bufs[3] = {DeviceBuffer<Real>::zeros(member * B), DeviceBuffer<Real>::zeros(member * B),
                                  DeviceBuffer<Real>::zeros(member * B)};
    Real* prev = bufs[0].get();
    Real* cur = bufs[1].get();
    Real* next = bufs[2].get();

    // Sources and receivers of all members, member after member; member m's are
    // [src_first[m], src_first[m + 1]) and [rec_first[m], rec_first[m + 1]), their nodes the
    // member's own (the kernel's arrays are the member's), the gather's index the whole buffer's.
    std::vector<long long> snode, rnode, rgather;
    std::vector<Real> sscale;
    std::vector<const SourceTerm*> srcs;
    std::vector<std::size_t> src_first{0}, rec_first{0};
    for (std::size_t m = 0; m < B; ++m) {
        for (const SourceTerm& s : group[m]->sources) {
            snode.push_back(static_cast<long long>(s.node));
            sscale.push_back(coef.dt2_inv_mass[s.node] * coef.inv_one_plus_h[uniform_h ? 0 : s.node]);
            srcs.push_back(&s);
        }
        for (const ReceiverPoint& r : group[m]->receivers) {
            rnode.push_back(static_cast<long long>(r.node));
            rgather.push_back(static_cast<long long>(m * member + r.node));
        }
        src_first.push_back(snode.size());
        rec_first.push_back(rnode.size());
    }
    const std::size_t nsrc = snode.size(), nrec = rnode.size();
    DeviceBuffer<long long> src_node(snode), rec_node(rnode), rec_gather(rgather);
    DeviceBuffer<Real> src_scale(sscale), src_force(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 3 * nsrc));
    DeviceBuffer<double> rec_out(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 3 * nrec));

    // What every member's launch shares; the state and point pointers are set per launch.
    cuda::FusedStepArgs<Real> shared{};
    shared.nx = p.grid.n[0];
    shared.ny = p.grid.n[1];
    shared.nz = p.grid.n[2];
    shared.ids = ids.get();
    shared.lambda = lambda.get();
    shared.mu = mu_d.get();
    const ModeScales sc = mode_scales(p.element_method(), p.grid.spacing);
    shared.s0 = static_cast<Real>(sc.constant);
    shared.s1 = static_cast<Real>(sc.linear);
    shared.s2 = static_cast<Real>(sc.bilinear);
    shared.a = a.get();
    shared.ih = uniform_h ? nullptr : ih.get();
    shared.mh = uniform_h ? nullptr : mh.get();
    shared.ih0 = coef.inv_one_plus_h.empty() ? Real(1) : coef.inv_one_plus_h[0];
    shared.mh0 = coef.one_minus_h.empty() ? Real(1) : coef.one_minus_h[0];
    shared.b = static_cast<Real>(p.rayleigh.beta / p.dt);
    shared.keep = Real(1) + shared.b;
    const bool damped = shared.b != Real(0);

    // u at the receivers for n = 0 .. steps (the last closes the last velocity); u^{-1} = 0.
    const std::size_t nt = std::size_t(p.steps);
    std::vector<double> samples((nt + 1) * nrec * 3, 0.0);
    std::vector<Real> forces(std::size_t(kBatchSteps) * 3 * nsrc);
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
            for (std::size_t m = 0; m < B; ++m) {
                cuda::FusedStepArgs<Real> args = shared;
                for (int c = 0; c < 3; ++c) {
                    const std::size_t off = m * member + std::size_t(c) * nn;
                    args.u[c] = cur + off;
                    args.um[c] = prev + off;
                    args.up[c] = next + off;
                }
                args.nsrc = int(src_first[m + 1] - src_first[m]);
                args.src_node = src_node.get() + src_first[m];
                args.src_scale = src_scale.get() + src_first[m];
                args.src_force = src_force.get() + (std::size_t(s) * nsrc + src_first[m]) * 3;
                args.nrec = int(rec_first[m + 1] - rec_first[m]);
                args.rec_node = rec_node.get() + rec_first[m];
                args.rec_out = rec_out.get() + (std::size_t(s) * nrec + rec_first[m]) * 3;
                cuda::launch_fused_step<Real>(args, damped, nullptr);
            }
            Real* const old = prev;
            prev = cur;
            cur = next;
            next = old;
        }
        if (nrec)
            rec_out.download(samples.data() + std::size_t(n0) * nrec * 3, std::size_t(nb) * nrec * 3);
        else
            VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        if (progress)
            for (std::int64_t s = 0; s < nb; ++s)
                if (!progress(n0 + s + 1)) throw Cancelled{};
    }
    if (nrec) {
        batched_gather_kernel<Real>
            <<<blocks_for(3 * nrec, 256), 256>>>(int(nrec), rec_gather.get(), nn, cur, rec_out.get());
        VOXWAVE_CUDA_CHECK_LAUNCH("batched_gather_kernel");
        rec_out.download(samples.data() + nt * nrec * 3, nrec * 3);
    }

    // From step-major samples to receiver-major traces, a block of receivers at a time: a block's
    // samples of one step are one contiguous run and each receiver's trace is written in order, so
    // neither side strides through memory (an array's FMC group brings back tens of thousands of
    // face nodes a step).
    constexpr std::size_t kTransposeBlock = 16;
    std::vector<ShotTraces> out(B);
    for (std::size_t m = 0; m < B; ++m) {
        ShotTraces& tr = out[m];
        const std::size_t r0 = rec_first[m], nr = rec_first[m + 1] - r0;
        tr.displacement.assign(nr * nt * 3, 0.0);
        tr.velocity.assign(nr * nt * 3, 0.0);
        for (std::size_t rb = 0; rb < nr; rb += kTransposeBlock) {
            const std::size_t re = std::min(nr, rb + kTransposeBlock);
            for (std::size_t t = 0; t < nt; ++t)
                for (std::size_t r = rb; r < re; ++r)
                    for (std::size_t c = 0; c < 3; ++c) {
                        auto at = [&](std::size_t tt) { return samples[(tt * nrec + r0 + r) * 3 + c]; };
                        const double before = t == 0 ? 0.0 : at(t - 1);
                        tr.displacement[(r * nt + t) * 3 + c] = at(t);
                        tr.velocity[(r * nt + t) * 3 + c] = (at(t + 1) - before) / (2.0 * p.dt);
                    }
        }
    }
    return out;
}

}  // namespace

std::vector<ShotTraces> run_shot_group_cuda(const WaveProblem& model, const std::vector<const ShotSources*>& group,
                                            const StepProgress& progress, int device, std::string* device_name) {
    const std::string why = batched_shots_unsupported(model, Backend::Cuda);
    if (!why.empty()) throw RuntimeError("run_shot_group_cuda: " + why);
    if (group.empty()) return {};
    const CudaDeviceInfo dev = cuda_device_for_run(device);
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    if (device_name) *device_name = dev.name;
    return model.precision == Precision::Fp64 ? run_group<double>(model, group, progress)
                                              : run_group<float>(model, group, progress);
}

}  // namespace voxwave
