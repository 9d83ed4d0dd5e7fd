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
// The receivers are not sampled one by one: before each step a small kernel reduces u^n to every
// member's recording rows (the kept receivers, then each probe element's weighted mean of its face
// nodes), and only those rows come back, a batch of steps at a time. The velocity is
// (u^{n+1} - u^{n-1}) / 2 dt of the rows, as the single CUDA run makes it of its receivers.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "wave/batched_shots.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_model_cuda.cuh"
#include "wave/wave_kernel_args.cuh"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

using cuda::DeviceBuffer;

// Steps whose source forces go up and whose receiver samples come back in one copy.
constexpr std::int64_t kBatchSteps = 256;

// Every member's recording rows (probe_recording.hpp) of u now, out[row * 3 + c] = sum_k
// weight[k] u[index[k] + c nn] over the row's terms [first[row], first[row + 1]) in order, as
// reduce_recording_rows sums them on the host (index: the member's first component's offset plus
// the node). An FMC group's element means are made here, so n_rows values a step leave the
// device instead of every face node's.
template <class Real>
__global__ void record_rows_kernel(int rows, const long long* first, const long long* index, const double* weight,
                                   std::size_t nn, const Real* u, double* out) {
    const int s = int(blockIdx.x) * blockDim.x + int(threadIdx.x);
    if (s >= 3 * rows) return;
    const int row = s / 3, c = s % 3;
    double sum = 0;
    for (long long k = first[row]; k < first[row + 1]; ++k)
        sum += weight[k] * double(u[std::size_t(index[k]) + std::size_t(c) * nn]);
    out[s] = sum;
}

int blocks_for(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

template <class Real>
ShotGroupRecording run_group(const WaveProblem& p, const std::vector<const ShotSources*>& group,
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
    const UpdateCoefficients<Real> coef = update_coefficients<Real>(p);
    cuda::VoxelModelDevice<Real> model;
    model.upload(p, coef, true);
    DeviceBuffer<Real> bufs[3] = {DeviceBuffer<Real>::zeros(member * B), DeviceBuffer<Real>::zeros(member * B),
                                  DeviceBuffer<Real>::zeros(member * B)};
    Real* prev = bufs[0].get();
    Real* cur = bufs[1].get();
    Real* next = bufs[2].get();

    // Sources of all members, member after member; member m's are [src_first[m], src_first[m + 1]),
    // their nodes the member's own (the kernel's arrays are the member's). The members' recording
    // rows likewise, [row_first[m], row_first[m + 1]), their terms indexing the whole buffer.
    std::vector<long long> snode, rfirst{0}, rindex;
    std::vector<double> rweight;
    std::vector<Real> sscale;
    std::vector<const SourceTerm*> srcs;
    std::vector<std::size_t> src_first{0}, row_first{0};
    for (std::size_t m = 0; m < B; ++m) {
        for (const SourceTerm& s : group[m]->sources) {
            snode.push_back(static_cast<long long>(s.node));
            sscale.push_back(coef.dt2_inv_mass[s.node] * coef.inv_one_plus_h[uniform_h ? 0 : s.node]);
            srcs.push_back(&s);
        }
        for (const auto& row : shot_recording_rows(*group[m]).rows) {
            for (const auto& [receiver, weight] : row) {
                rindex.push_back(static_cast<long long>(m * member + group[m]->receivers[receiver].node));
                rweight.push_back(weight);
            }
            rfirst.push_back(static_cast<long long>(rindex.size()));
        }
        src_first.push_back(snode.size());
        row_first.push_back(rfirst.size() - 1);
    }
    const std::size_t nsrc = snode.size(), nrows = rfirst.size() - 1;
    DeviceBuffer<long long> src_node(snode), row_terms(rfirst), term_index(rindex);
    DeviceBuffer<double> term_weight(rweight);
    DeviceBuffer<Real> src_scale(sscale), src_force(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 3 * nsrc));
    DeviceBuffer<double> rows_out(std::max<std::size_t>(1, std::size_t(kBatchSteps) * 3 * nrows));
    auto record_rows = [&](const Real* u, std::int64_t slot) {
        if (!nrows) return;
        record_rows_kernel<Real><<<blocks_for(3 * nrows, 256), 256>>>(int(nrows), row_terms.get(), term_index.get(),
                                                                      term_weight.get(), nn, u,
                                                                      rows_out.get() + std::size_t(slot) * 3 * nrows);
        VOXWAVE_CUDA_CHECK_LAUNCH("record_rows_kernel");
    };

    // What every member's launch shares; the state and point pointers are set per launch.
    const cuda::FusedStepArgs<Real> shared = model.fused_args(p);
    const bool damped = shared.b != Real(0);

    // The rows of u for n = 0 .. steps (the last closes the last velocity); u^{-1} = 0.
    const std::size_t nt = std::size_t(p.steps);
    std::vector<double> samples((nt + 1) * nrows * 3, 0.0);
    std::vector<Real> forces(std::size_t(kBatchSteps) * 3 * nsrc);
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());  // the uploads are set-up, not the loop's
    const auto loop_t0 = std::chrono::steady_clock::now();
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
            record_rows(cur, s);  // u^n, before any member's step writes u^{n+1}
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
                cuda::launch_fused_step<Real>(args, damped, nullptr);
            }
            Real* const old = prev;
            prev = cur;
            cur = next;
            next = old;
        }
        if (nrows)
            rows_out.download(samples.data() + std::size_t(n0) * nrows * 3, std::size_t(nb) * nrows * 3);
        else
            VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        if (progress)
            for (std::int64_t s = 0; s < nb; ++s)
                if (!progress(n0 + s + 1)) throw Cancelled{};
    }
    if (nrows) {
        record_rows(cur, 0);
        rows_out.download(samples.data() + nt * nrows * 3, nrows * 3);
    }
    ShotGroupRecording out;
    out.loop_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_t0).count();

    // From step-major samples to row-major traces (each row's trace written in order).
    out.members.resize(B);
    for (std::size_t m = 0; m < B; ++m) {
        ShotTraces& tr = out.members[m];
        const std::size_t r0 = row_first[m], nr = row_first[m + 1] - r0;
        tr.displacement.assign(nr * nt * 3, 0.0);
        tr.velocity.assign(nr * nt * 3, 0.0);
        for (std::size_t r = 0; r < nr; ++r)
            for (std::size_t t = 0; t < nt; ++t)
                for (std::size_t c = 0; c < 3; ++c) {
                    auto at = [&](std::size_t tt) { return samples[(tt * nrows + r0 + r) * 3 + c]; };
                    const double before = t == 0 ? 0.0 : at(t - 1);
                    tr.displacement[(r * nt + t) * 3 + c] = at(t);
                    tr.velocity[(r * nt + t) * 3 + c] = (at(t + 1) - before) / (2.0 * p.dt);
                }
    }
    return out;
}

}  // namespace

ShotGroupRecording run_shot_group_cuda(const WaveProblem& model, const std::vector<const ShotSources*>& group,
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
