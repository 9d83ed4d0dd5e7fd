// The batched CUDA step (batched_shots.hpp): B members of one model on one device.
//
// Each member's state is a single run's ([member][component][node], component-major per member)
// and a step runs the fused single-shot kernel (fused_step.cuh: one sweep, forces kept on chip)
// once per member, back to back on one stream, then one small launch adds every member's sources
// (add_group_sources_kernel), with the model's tables (material ids, Lame constants, dt^2/m, the
// sponge's factors) uploaded once and read by every member. Not the batch inside one kernel: per member it would
// move the same state (72 B a node in FP64) and do the same element work, and G members a tile
// need G times the fused kernel's on-chip room or a tile G times smaller (the bytes and the
// resources: docs/architecture.md#batched-shots; the member-lane kernel this replaces computed
// each element 2.3 times and ran at 0.92x of the single runs).
//
// The receivers are not sampled one by one: before each step a small kernel reduces u^n to every
// member's recording rows (the kept receivers, then each probe element's weighted mean of its face
// nodes), and only those rows come back, a batch of steps at a time, while the host makes the
// next batch's source forces (two slots, pinned host memory, asynchronous copies). The velocity is
// (u^{n+1} - u^{n-1}) / 2 dt of the rows, as the single CUDA run makes it of its receivers.
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
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
constexpr unsigned kFullWarp = 0xffffffffu;

// Every member's recording rows (probe_recording.hpp) of u now, out[row * 3 + c] = sum_k
// weight[k] u[index[k] + c nn] over the row's terms [first[row], first[row + 1]) in order, as
// reduce_recording_rows sums them on the host (index: the member's first component's offset plus
// the node). An FMC group's element means are made here, so n_rows values a step leave the
// device instead of every face node's. One warp a row: its lanes load 32 terms at once (a thread
// a row waited for one gather after another, about 85 of them an element face), and every lane
// then sums them in the row's order from the shuffled values, so the sum rounds as the host's.
template <class Real>
__global__ void record_rows_kernel(int rows, const long long* first, const long long* index, const double* weight,
                                   std::size_t nn, const Real* u, double* out) {
    const int row = int((blockIdx.x * blockDim.x + threadIdx.x) / 32), lane = int(threadIdx.x % 32);
    if (row >= rows) return;  // a whole warp: blockDim is a multiple of 32
    double sum[3] = {0, 0, 0};
    const long long k1 = first[row + 1];
    for (long long k0 = first[row]; k0 < k1; k0 += 32) {
        double w = 0, x[3] = {0, 0, 0};
        if (k0 + lane < k1) {
            w = weight[k0 + lane];
            const std::size_t at = std::size_t(index[k0 + lane]);
#pragma unroll
            for (int c = 0; c < 3; ++c) x[c] = double(u[at + std::size_t(c) * nn]);
        }
        const int n = int(k1 - k0 < 32 ? k1 - k0 : 32);
        for (int l = 0; l < n; ++l) {
            const double wl = __shfl_sync(kFullWarp, w, l);
#pragma unroll
            for (int c = 0; c < 3; ++c) sum[c] += wl * __shfl_sync(kFullWarp, x[c], l);
        }
    }
    if (lane < 3) out[3 * row + lane] = lane == 0 ? sum[0] : (lane == 1 ? sum[1] : sum[2]);
}

// Every member's sources of one step added to its u^{n+1} after all members' steps (the fused
// step then runs without sources: it would scan the member's whole source list, about 84 nodes
// of an element face, with one lane of every block after its sweep). One thread an entry of
// GroupSourceNodes and a component, its sources in order (add_node_sources).
template <class Real>
__global__ void add_group_sources_kernel(int entries, const long long* node, const long long* first,
                                         const long long* term, const Real* scale, const Real* force, std::size_t nn,
                                         Real* up) {
    const int s = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (s >= 3 * entries) return;
    const int k = s / 3, c = s % 3;
    Real* const at = up + std::size_t(node[k]) + std::size_t(c) * nn;
    *at = add_node_sources(first, term, scale, force, k, c, *at);
}

int blocks_for(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

// Waits for the device before the buffers of a loop left by an exception are freed (copies into
// pinned host memory may still be in flight).
struct DrainDeviceOnExit {
    ~DrainDeviceOnExit() { (void)cudaDeviceSynchronize(); }
};

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

    // Sources of all members, member after member (q: the index of a source's force in a step's
    // block), added by (member, node) entries (GroupSourceNodes). The members' recording rows
    // [row_first[m], row_first[m + 1]), their terms indexing the whole buffer.
    std::vector<long long> rfirst{0}, rindex;
    std::vector<double> rweight;
    std::vector<Real> sscale;
    std::vector<const SourceTerm*> srcs;
    std::vector<std::size_t> row_first{0};
    for (std::size_t m = 0; m < B; ++m) {
        for (const SourceTerm& s : group[m]->sources) {
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
        row_first.push_back(rfirst.size() - 1);
    }
    const GroupSourceNodes entries = group_source_nodes(group, member);
    const std::size_t nsrc = srcs.size(), nrows = rfirst.size() - 1;
    DeviceBuffer<long long> entry_node(entries.node), entry_first(entries.first), entry_term(entries.term);
    DeviceBuffer<long long> row_terms(rfirst), term_index(rindex);
    DeviceBuffer<double> term_weight(rweight);
    DeviceBuffer<Real> src_scale(sscale);
    // Two slots of a batch's forces and rows each: the host fills batch b + 1's forces and takes
    // batch b - 1's rows while the device steps batch b (pinned host ends, asynchronous copies).
    const std::size_t force_slot = std::size_t(kBatchSteps) * 3 * nsrc, row_slot = std::size_t(kBatchSteps) * 3 * nrows;
    DeviceBuffer<Real> src_force(std::max<std::size_t>(1, 2 * force_slot));
    DeviceBuffer<double> rows_out(std::max<std::size_t>(1, 2 * row_slot));
    cuda::PinnedHostBuffer<Real> forces_host(2 * force_slot);
    cuda::PinnedHostBuffer<double> rows_host(2 * row_slot);
    auto record_rows = [&](const Real* u, double* out) {
        if (!nrows) return;
        record_rows_kernel<Real><<<blocks_for(32 * nrows, 256), 256>>>(int(nrows), row_terms.get(), term_index.get(),
                                                                       term_weight.get(), nn, u, out);
        VOXWAVE_CUDA_CHECK_LAUNCH("record_rows_kernel");
    };
    auto add_sources = [&](Real* up, const Real* force) {
        if (!entries.entries()) return;
        add_group_sources_kernel<Real><<<blocks_for(3 * entries.entries(), 256), 256>>>(
            int(entries.entries()), entry_node.get(), entry_first.get(), entry_term.get(), src_scale.get(), force, nn,
            up);
        VOXWAVE_CUDA_CHECK_LAUNCH("add_group_sources_kernel");
    };

    // What every member's launch shares; the state pointers are set per launch (no sources or
    // receivers in the fused step: add_sources and record_rows do them for the whole group).
    const cuda::FusedStepArgs<Real> shared = model.fused_args(p);
    const bool damped = shared.b != Real(0);

    // A batch in flight: its steps, the event after its forces left the host buffer and after its
    // rows arrived in it, and four timing marks a step (before the rows, before the members'
    // steps, after them, after the sources).
    struct Slot {
        std::int64_t n0 = 0, nb = 0;
        cuda::Event forces_sent{cudaEventDisableTiming}, rows_back{cudaEventDisableTiming};
        std::vector<cuda::Event> marks;
    };
    Slot slots[2];
    for (Slot& sl : slots) sl.marks.resize(std::size_t(4 * kBatchSteps));
    DrainDeviceOnExit drain;

    // The rows of u for n = 0 .. steps (the last closes the last velocity); u^{-1} = 0.
    const std::size_t nt = std::size_t(p.steps);
    std::vector<double> samples((nt + 1) * nrows * 3, 0.0);
    ShotGroupRecording out;
    // Batch `which`'s rows into the samples, its kernels' times, then its steps' progress.
    auto finish = [&](int which) {
        Slot& sl = slots[which];
        sl.rows_back.synchronize();
        if (nrows)
            std::copy_n(rows_host.get() + std::size_t(which) * row_slot, std::size_t(sl.nb) * 3 * nrows,
                        samples.data() + std::size_t(sl.n0) * 3 * nrows);
        for (std::size_t s = 0; s < std::size_t(sl.nb); ++s) {
            const cuda::Event* mark = sl.marks.data() + 4 * s;
            out.row_seconds += cuda::elapsed_seconds(mark[0], mark[1]);
            out.step_kernel_seconds += cuda::elapsed_seconds(mark[1], mark[2]);
            out.source_seconds += cuda::elapsed_seconds(mark[2], mark[3]);
        }
        if (progress)
            for (std::int64_t s = 0; s < sl.nb; ++s)
                if (!progress(sl.n0 + s + 1)) throw Cancelled{};
    };
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());  // the uploads are set-up, not the loop's
    const auto loop_t0 = std::chrono::steady_clock::now();
    int batch = 0;
    for (std::int64_t n0 = 0; n0 < p.steps; n0 += kBatchSteps, ++batch) {
        const int which = batch & 1;
        Slot& sl = slots[which];
        sl.n0 = n0;
        sl.nb = std::min(kBatchSteps, p.steps - n0);
        Real* const forces = forces_host.get() + std::size_t(which) * force_slot;
        Real* const forces_dev = src_force.get() + std::size_t(which) * force_slot;
        double* const rows_dev = rows_out.get() + std::size_t(which) * row_slot;
        if (nsrc) {
            if (batch >= 2) sl.forces_sent.synchronize();  // batch - 2's copy has left the buffer
            for (std::int64_t s = 0; s < sl.nb; ++s) {
                const double tn = double(n0 + s) * p.dt;
                for (std::size_t q = 0; q < nsrc; ++q) {
                    const double w = evaluate_wavelet(srcs[q]->wavelet, tn - srcs[q]->time_shift);
                    for (int c = 0; c < 3; ++c)
                        forces[(std::size_t(s) * nsrc + q) * 3 + std::size_t(c)] =
                            static_cast<Real>(srcs[q]->force[c] * w);
                }
            }
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(forces_dev, forces, std::size_t(sl.nb) * 3 * nsrc * sizeof(Real),
                                               cudaMemcpyHostToDevice, nullptr));
            sl.forces_sent.record();
        }
        for (std::int64_t s = 0; s < sl.nb; ++s) {
            cuda::Event* mark = sl.marks.data() + 4 * s;
            mark[0].record();
            record_rows(cur, rows_dev + std::size_t(s) * 3 * nrows);  // u^n, before any member writes u^{n+1}
            mark[1].record();
            for (std::size_t m = 0; m < B; ++m) {
                cuda::FusedStepArgs<Real> args = shared;
                for (int c = 0; c < 3; ++c) {
                    const std::size_t off = m * member + std::size_t(c) * nn;
                    args.u[c] = cur + off;
                    args.um[c] = prev + off;
                    args.up[c] = next + off;
                }
                cuda::launch_fused_step<Real>(args, damped, nullptr);
            }
            mark[2].record();
            add_sources(next, forces_dev + std::size_t(s) * 3 * nsrc);
            mark[3].record();
            Real* const old = prev;
            prev = cur;
            cur = next;
            next = old;
        }
        if (nrows)
            VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(rows_host.get() + std::size_t(which) * row_slot, rows_dev,
                                               std::size_t(sl.nb) * 3 * nrows * sizeof(double), cudaMemcpyDeviceToHost,
                                               nullptr));
        sl.rows_back.record();
        if (batch >= 1) finish(which ^ 1);
    }
    if (batch >= 1) finish((batch - 1) & 1);
    if (nrows) {
        record_rows(cur, rows_out.get());
        rows_out.download(samples.data() + nt * nrows * 3, nrows * 3);
    }
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
