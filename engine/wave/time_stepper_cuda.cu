// The CUDA time loop: device buffers, the fused update kernel, sources and receivers, batching
// of receiver samples, timing helpers. The stiffness kernels live in voxel_stiffness_cuda.cu
// (VFEM/OVFEM, FP64/FP32) and tcovfem_int8_cuda.cu (INT8 Tensor Cores).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "core/grid_dependency.hpp"
#include "core/programmatic_launch.cuh"
#include "wave/batched_shots.hpp"
#include "wave/central_difference.hpp"
#include "wave/fused_step.cuh"
#include "wave/pml_correction_cuda.cuh"
#include "wave/snapshot_taker.hpp"
#include "wave/tcovfem_int8.hpp"
#include "wave/time_stepper_cuda.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_model_cuda.cuh"
#include "wave/wave_kernel_args.cuh"
#include "wave/wave_run.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {

namespace {

using cuda::check;
using cuda::DeviceBuffer;
using cuda::elapsed_seconds;
using cuda::Event;

template <class Real>
struct UpdateArgs {
    std::size_t nn;
    const Real* u[3];
    Real* um[3];         // u^{n-1} in, u^{n+1} out
    Real* f[3];          // K w in, zero out (ready for the next step's atomics)
    const Real* a;       // dt^2 / m (0 where fixed or massless)
    const Real* ih;      // 1 / (1 + h) per node (sponge) or null
    const Real* mh;      // 1 - h per node or null
    Real ih0, mh0;       // the uniform values
    const double* diag;  // TCOVFEM's FP64 diagonal per node, or null
    Real keep, b;
};

// (1 + h) u+ = 2u - (1 - h) u- - dt^2 M^-1 K w (same expression as the CPU stepper).
// One node per thread, every load issued before the first store (restrict-qualified copies of
// the pointers): a grid-stride loop with loads and stores interleaved per component measured
// 350 us on the 2 mm model (0.7 TB/s, stalled on dependent loads), this form streams.
template <class Real, bool UniformH, bool Diagonal>
__global__ void __launch_bounds__(256) update_kernel(UpdateArgs<Real> a) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= a.nn) return;
    const Real* __restrict__ u0 = a.u[0];
    const Real* __restrict__ u1 = a.u[1];
    const Real* __restrict__ u2 = a.u[2];
    Real* __restrict__ m0 = a.um[0];
    Real* __restrict__ m1 = a.um[1];
    Real* __restrict__ m2 = a.um[2];
    Real* __restrict__ f0 = a.f[0];
    Real* __restrict__ f1 = a.f[1];
    Real* __restrict__ f2 = a.f[2];
    const Real ai = __ldg(a.a + i);
    const Real ih = UniformH ? a.ih0 : __ldg(a.ih + i);
    const Real mh = UniformH ? a.mh0 : __ldg(a.mh + i);
    const Real u[3] = {u0[i], u1[i], u2[i]};
    const Real um[3] = {m0[i], m1[i], m2[i]};
    Real f[3] = {f0[i], f1[i], f2[i]};
    if (Diagonal) {
        const double d = __ldg(a.diag + i);
#pragma unroll
        for (int c = 0; c < 3; ++c) f[c] += Real(d * double(damped_operand(u[c], um[c], a.keep, a.b)));
    }
    f0[i] = Real(0);
    f1[i] = Real(0);
    f2[i] = Real(0);
    m0[i] = central_difference_node(u[0], um[0], ai * f[0], mh, ih);
    m1[i] = central_difference_node(u[1], um[1], ai * f[1], mh, ih);
    m2[i] = central_difference_node(u[2], um[2], ai * f[2], mh, ih);
}

template <class Real>
struct PointArgs {
    int entries, nrec;           // source nodes (GroupSourceNodes entries), receivers
    const long long* src_node;   // [entries] the node of entry k
    const long long* src_first;  // [entries + 1] entry k's sources: src_term[first[k] .. first[k + 1])
    const long long* src_term;   // source indices q
    const Real* src_scale;       // [q] dt^2/m / (1 + h) at the source node
    const Real* src_force;       // [q * 3] force * wavelet(t_n), this step
    Real* up[3];
    const long long* rec_node;
    const Real* u[3];
    double* rec_out;  // [nrec * 3]
};

// The sources of a step added to u^{n+1} and u^n sampled at the receivers: a thread a source node
// and component, then a thread a receiver component. A probe's elements put several sources on one
// node; its thread adds them one after another in the list's order (add_node_sources), as the
// fused kernel's lane 0 does, so the two give the same u^{n+1} bit for bit, with no atomics.
// Launched as a programmatic dependent of the fused step on sm_90 (fused_step_pdl): its blocks
// take the SMs as the step's blocks leave, and the next step's blocks theirs as these start.
template <class Real>
__global__ void __launch_bounds__(256) point_kernel(PointArgs<Real> a) {
    release_next_and_await_previous_grid();  // the step's u^{n+1}
    // A component's array by selects: a.up[c] with a variable c copied the parameter arrays to
    // the stack (96-112 bytes a thread).
    auto pick = [](auto* const(&p)[3], int c) { return c == 0 ? p[0] : (c == 1 ? p[1] : p[2]); };
    const int t = int(blockIdx.x * blockDim.x + threadIdx.x);
    if (t < 3 * a.entries) {
        const int k = t / 3, c = t % 3;
        Real* const at = pick(a.up, c) + a.src_node[k];
        *at = add_node_sources(a.src_first, a.src_term, a.src_scale, a.src_force, k, c, *at);
        return;
    }
    const int r = t - 3 * a.entries;
    if (r < 3 * a.nrec) a.rec_out[r] = double(pick(a.u, r % 3)[a.rec_node[r / 3]]);
}

// One thread per slice pixel: the shared slice_value of the CPU session, straight into device
// memory (a mapped OpenGL buffer in the GUI: no host copy).
template <class Real>
__global__ void slice_kernel(const Real* u0, const Real* u1, const Real* u2, const Real* p0, const Real* p1,
                             const Real* p2, SlicePlane plane, int index, SliceQuantity q, int w, int h,
                             std::size_t nx1, std::size_t ny1, double inv_dt, float* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= w * h) return;
    const Real* const u[3] = {u0, u1, u2};
    const Real* const up[3] = {p0, p1, p2};
    const std::size_t node = slice_node_index(plane, index, i % w, i / w, nx1, ny1);
    out[i] = static_cast<float>(slice_value(q, u, up, node, inv_dt));
}

// One thread per value: the snapshot nodes' displacement, [i * 3 + c], so that only the region at
// its stride leaves the device.
template <class Real>
__global__ void gather_nodes_kernel(const Real* u, std::size_t nn, const long long* nodes, std::size_t count,
                                    double* out) {
    const std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (i >= 3 * count) return;
    out[i] = double(u[(i % 3) * nn + std::size_t(nodes[i / 3])]);
}

// Median of timings (the upper one of the two middle values for an even count).
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int launch_blocks(std::size_t n, int threads) { return int((n + std::size_t(threads) - 1) / std::size_t(threads)); }

// What one engine instance does; the precision is a template parameter of the implementation.
class EngineBase {
public:
    virtual ~EngineBase() = default;
    virtual std::size_t node_count() const = 0;
    virtual void set_state(const std::vector<double>& up, const std::vector<double>& u) = 0;
    virtual void restart_shot() = 0;
    virtual std::vector<double> download(bool previous) const = 0;
    // u (or u^{n-1}) at `nodes`, [i * 3 + c]; the node list is uploaded once and kept.
    virtual std::vector<double> gather(const std::vector<std::size_t>& nodes, bool previous) = 0;
    virtual void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) = 0;
    virtual std::vector<double> stiffness_times(const std::vector<double>& v) = 0;
    virtual double median_stiffness_seconds(int reps) = 0;
    virtual std::vector<double> receiver_values() = 0;  // u at the receivers now, [r * 3 + c]
    virtual void write_slice(SlicePlane plane, int index, SliceQuantity q, int w, int h, float* out) const = 0;
    virtual std::size_t device_bytes() const = 0;
    virtual CudaTimeStepper::KernelSeconds kernel_seconds(std::int64_t n0, int reps) = 0;
    virtual CudaTimeStepper::HaloPhaseSeconds halo_phase_seconds(std::int64_t n0, int reps) = 0;
    virtual void set_exchange_enabled(bool enabled) = 0;
    virtual bool fused_step() const = 0;
    virtual bool overlapped_exchange() const = 0;
    virtual bool fused_kernel_points() const = 0;
};

// A window of an overlapped step (overlap_windows, halo_exchange.hpp) with its own part of
// TCOVFEM's row handoff and its own ticket counter, since windows may run side by side.
struct StepWindow : OverlapWindow {
    std::size_t handoff_offset = 0, handoff_words = 0;
};

// The step design an engine uses (MomentStepDesign::Auto resolved).
bool use_fused_step(MomentStepDesign d) {
    if (d == MomentStepDesign::Auto) {
        const char* env = std::getenv("VOXWAVE_CUDA_STEP");
        if (env && std::strcmp(env, "split") == 0) return false;
        if (env && *env && std::strcmp(env, "fused") != 0)
            throw InputError("", "VOXWAVE_CUDA_STEP", std::string("unknown step design '") + env + "' (fused | split)");
        return true;
    }
    return d == MomentStepDesign::Fused;
}

constexpr std::int64_t kBatch = 512;  // steps per receiver/source batch

// What the engine computes on the host before it uploads: the update factors and TCOVFEM's
// FP64 diagonal (empty for the other methods). Made on a second thread while cudaSetDevice
// creates the device context (CudaTimeStepper's constructor).
template <class Real>
struct HostTables {
    UpdateCoefficients<Real> coef;
    std::vector<double> diag;
    PmlTables pml;  // empty without a PML
};

template <class Real>
HostTables<Real> host_tables(const WaveProblem& p, const CudaEngineOptions& options) {
    HostTables<Real> t{update_coefficients<Real>(p), {}, {}};
    if (p.boundary.has_pml()) t.pml = pml_tables(p.boundary.pml, p.grid, p.node_mass, p.dt);
    if (p.method == Method::Tcovfem) {
        t.diag = tcovfem_node_diagonal(p.grid, tcovfem_material_factors(p.materials, p.grid.spacing));
    }
    return t;
}

template <class Real>
class Engine final : public EngineBase {
public:
    Engine(const WaveProblem& p, CudaEngineOptions options, HostTables<Real> tables)
        : p_(p), nn_(p.grid.node_count()), ne_(p.grid.element_count()) {
        staged_ = options.tcovfem_mapping == TcovfemMapping::Staged;
        tc_ = p.method == Method::Tcovfem;
        damped_ = p.rayleigh.beta != 0;
        uniform_h_ = !p.boundary.has_node_damping();
        exchange_ = options.exchange;
        pml_bytes_ = cuda::PmlCorrection<Real>::bytes_of(tables.pml, damped_);
        fused_ = use_fused_step(options.moment_step);
        fused_points_ = options.fused_points;
        // The PML's passes run over the whole layer after the kernel (pml_fused), so a step with
        // a PML keeps the plain order: kernel, passes, sources, exchange.
        if (options.overlap_exchange && exchange_ && fused_ && tables.pml.empty())
            for (const OverlapWindow& w : overlap_windows(exchange_->plan(), p.grid.n[2])) windows_.push_back({w});
        if (tc_ && fused_) {
            std::size_t offset = cuda::fused_handoff_words(p.grid.n[0], p.grid.n[1], p.grid.n[2]);
            for (StepWindow& w : windows_) {
                w.handoff_offset = offset;
                w.handoff_words = cuda::fused_handoff_words(p.grid.n[0], p.grid.n[1], w.e_hi - w.e_lo);
                offset += w.handoff_words;
            }
        }
        check_fits();  // after fused_: the row handoff counts only where the fused step uses it
        if (exchange_ && exchange_->plan().node_count() != nn_)
            throw RuntimeError("halo exchange: its plan is for another subdomain");
        for (auto* b : {&u_, &um_, &f_}) b->resize(3 * nn_);
        const UpdateCoefficients<Real>& coef = tables.coef;
        host_a_ = coef.dt2_inv_mass;
        model_.upload(p, coef, !tc_);
        const double ds = p.grid.spacing;
        if (tc_) {
            const auto factors = tcovfem_material_factors(p.materials, ds);
            std::vector<double> kf(256), gf(256);
            for (int id = 0; id < 256; ++id) {
                kf[id] = factors[id].kappa;
                gf[id] = factors[id].shear;
            }
            kappa_f_.resize(256);
            kappa_f_.upload(kf);
            shear_f_.resize(256);
            shear_f_.upload(gf);
            std::vector<std::uint32_t> frag(32 * 3 * 2 * 2);
            cuda::tcovfem_pack_b_fragments(frag.data());
            bfrag_.resize(frag.size());
            bfrag_.upload(frag);
            cuda::tcovfem_pack_b_fragments(frag.data(), cuda::TcovfemOutputOrder::FaceRows);
            bfrag_fused_.resize(frag.size());
            bfrag_fused_.upload(frag);
            host_diag_ = std::move(tables.diag);
            diag_.resize(nn_);
            diag_.upload(host_diag_);
            if (fused_) {  // the fused step's row handoff between y tiles (and a counter per window)
                handoff_.resize(handoff_words());
                tickets_.resize(1 + windows_.size());
            }
        }
        if (!uniform_h_) host_ih_ = coef.inv_one_plus_h;
        upload_points();
        if (!tables.pml.empty()) pml_ = std::make_unique<cuda::PmlCorrection<Real>>(p, tables.pml);
        if (!windows_.empty()) {
            // The exchange's stream at the highest priority: its NCCL kernels take SMs as soon as
            // the interior's blocks free any.
            int least = 0, greatest = 0;
            VOXWAVE_CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
            VOXWAVE_CUDA_CHECK(cudaStreamCreateWithPriority(&comm_, cudaStreamNonBlocking, greatest));
        }
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }
    ~Engine() override {
        if (comm_) {
            cudaStreamSynchronize(comm_);
            cudaStreamDestroy(comm_);
        }
    }

    std::size_t node_count() const override { return nn_; }

    // The problem's sources and receivers (node lists, source scales, batch buffers).
    void upload_points() {
        std::vector<long long> sn, rn;
        std::vector<Real> sscale;
        for (const auto& s : p_.sources) {
            sn.push_back(static_cast<long long>(s.node));
            sscale.push_back(host_a_[s.node] * (uniform_h_ ? model_.ih0 : host_ih_[s.node]));
        }
        for (const auto& r : p_.receivers) rn.push_back(static_cast<long long>(r.node));
        // The fused kernel's walk (sn, per source) or the point launch's entries (a source node
        // each, its sources in order: one group of one member).
        ShotSources shot;
        shot.sources = p_.sources;
        const GroupSourceNodes entries = group_source_nodes({&shot}, 3 * nn_);
        // With a PML the receivers stay in the kernel whatever the count (the sources come after
        // the layer's passes in points() either way): sampling them after the passes is not the
        // kernel's u^n there.
        kernel_points_ = fused_ && (!windows_.empty() || p_.boundary.has_pml() ||
                                    fused_kernel_takes_points(fused_points_, sn.size(), rn.size()));
        // A scan's next shot usually has as many points: keep the allocations then (every
        // buffer here is written before it is read).
        auto fit = [](auto& buffer, std::size_t n) {
            if (buffer.size() != n) buffer.resize(n);
        };
        fit(src_node_, sn.size());
        src_node_.upload(sn);
        fit(src_entry_node_, entries.node.size());
        src_entry_node_.upload(entries.node);
        fit(src_entry_first_, entries.first.size());
        src_entry_first_.upload(entries.first);
        fit(src_entry_term_, entries.term.size());
        src_entry_term_.upload(entries.term);
        fit(src_scale_, sscale.size());
        src_scale_.upload(sscale);
        fit(src_force_, std::max<std::size_t>(1, kBatch * 3 * sn.size()));
        fit(rec_node_, rn.size());
        rec_node_.upload(rn);
        fit(rec_buf_, std::max<std::size_t>(1, kBatch * 3 * rn.size()));
    }

    // The next shot of a scan: the same model, the problem's (changed) sources and receivers,
    // every field at rest. Zeroed on the device, so nothing of the model travels again.
    void restart_shot() override {
        upload_points();
        for (auto* b : {&u_, &um_, &f_}) VOXWAVE_CUDA_CHECK(cudaMemset(b->get(), 0, b->size() * sizeof(Real)));
        if (pml_) pml_->reset(state(um_), state(u_));
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }

    void set_state(const std::vector<double>& up, const std::vector<double>& u) override {
        const auto held = [this](std::size_t n) { return host_a_[n] == Real(0); };
        const std::vector<Real> a = stepper_state<Real>(u, 3, nn_, held), b = stepper_state<Real>(up, 3, nn_, held);
        u_.upload(a);
        um_.upload(b);
        if (pml_) pml_->reset(state(um_), state(u_));
    }

    void write_slice(SlicePlane plane, int index, SliceQuantity q, int w, int h, float* out) const override {
        const std::size_t nn = nn_;
        const Real* u = u_.get();
        const Real* p = um_.get();
        const int threads = 256;
        slice_kernel<Real><<<launch_blocks(std::size_t(w) * h, threads), threads>>>(
            u, u + nn, u + 2 * nn, p, p + nn, p + 2 * nn, plane, index, q, w, h, std::size_t(p_.grid.n[0] + 1),
            std::size_t(p_.grid.n[1] + 1), 1.0 / p_.dt, out);
        VOXWAVE_CUDA_CHECK_LAUNCH("slice_kernel");
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }

    std::vector<double> gather(const std::vector<std::size_t>& nodes, bool previous) override {
        if (nodes.empty()) return {};
        if (gather_nodes_.size() != nodes.size()) {
            gather_nodes_ = DeviceBuffer<long long>(std::vector<long long>(nodes.begin(), nodes.end()));
            gather_out_ = DeviceBuffer<double>(3 * nodes.size());
        }
        const int threads = 256;
        gather_nodes_kernel<Real><<<launch_blocks(3 * nodes.size(), threads), threads>>>(
            (previous ? um_ : u_).get(), nn_, gather_nodes_.get(), nodes.size(), gather_out_.get());
        VOXWAVE_CUDA_CHECK_LAUNCH("gather_nodes_kernel");
        return gather_out_.download();
    }

    std::vector<double> download(bool previous) const override {
        std::vector<Real> h(3 * nn_);
        (previous ? um_ : u_).download(h.data(), h.size());
        return std::vector<double>(h.begin(), h.end());
    }

    // f += K w over element planes [k_lo, k_hi) (the whole model by default). A plane range is
    // the same kernel on a shifted view: planes are contiguous in every array (z is slowest),
    // and every add is atomic, so ranges may run concurrently on different streams.
    void stiffness(const Real* u, const Real* um, bool damped, Real* f, int k_lo = 0, int k_hi = -1,
                   cudaStream_t stream = nullptr) {
        if (k_hi < 0) k_hi = p_.grid.n[2];
        if (k_hi <= k_lo) return;
        const std::size_t node0 = std::size_t(k_lo) * std::size_t(p_.grid.n[0] + 1) * std::size_t(p_.grid.n[1] + 1);
        const std::uint8_t* ids =
            model_.ids.get() + std::size_t(k_lo) * std::size_t(p_.grid.n[0]) * std::size_t(p_.grid.n[1]);
        const int nz = k_hi - k_lo;
        const Real* uu[3] = {u + node0, u + nn_ + node0, u + 2 * nn_ + node0};
        const Real* pp[3] = {um ? um + node0 : nullptr, um ? um + nn_ + node0 : nullptr,
                             um ? um + 2 * nn_ + node0 : nullptr};
        Real* ff[3] = {f + node0, f + nn_ + node0, f + 2 * nn_ + node0};
        if constexpr (std::is_same_v<Real, double>) {
            if (tc_) {
                cuda::TcovfemStiffnessArgs a{p_.grid.n[0],
                                             p_.grid.n[1],
                                             nz,
                                             p_.stages,
                                             ids,
                                             kappa_f_.get(),
                                             shear_f_.get(),
                                             bfrag_.get(),
                                             {uu[0], uu[1], uu[2]},
                                             {pp[0], pp[1], pp[2]},
                                             model_.keep,
                                             model_.b,
                                             {ff[0], ff[1], ff[2]}};
                cuda::launch_tcovfem_stiffness(a, damped, staged_, stream);
                return;
            }
        }
        const cuda::VoxelModelDevice<Real>& m = model_;
        cuda::MomentStiffnessArgs<Real> a{p_.grid.n[0],
                                          p_.grid.n[1],
                                          nz,
                                          ids,
                                          m.lambda.get(),
                                          m.mu.get(),
                                          m.s0,
                                          m.s1,
                                          m.s2,
                                          {uu[0], uu[1], uu[2]},
                                          {pp[0], pp[1], pp[2]},
                                          m.keep,
                                          m.b,
                                          {ff[0], ff[1], ff[2]}};
        cuda::launch_moment_stiffness<Real>(a, damped, stream);
    }

    void step_stiffness() { stiffness(u_.get(), um_.get(), damped_, f_.get()); }

    // The ghost nodes of u+ from the neighbours (a subdomain of a distributed run), in stream
    // order after the step's kernels.
    void exchange_ghosts() {
        if (exchange_ && exchange_enabled_) exchange_->exchange_device(next_state(), sizeof(Real) == 8, nullptr);
    }

    // Fused design: the whole step in one kernel, u^{n+1} into f_ (a third state buffer here;
    // the fused engine never adds forces into it). The kernel also does the point kernel's work
    // for batch slot `slot`: the sources, and the receivers when `receivers`. With a window (an
    // overlapped step) the same kernel on its view, writing the window's node planes only.
    void fused_step_kernel(int slot, bool receivers, const StepWindow* window = nullptr) {
        cuda::FusedStepArgs<Real> a = model_.fused_args(p_);
        for (int c = 0; c < 3; ++c) {
            a.u[c] = u_.get() + c * nn_;
            a.um[c] = um_.get() + c * nn_;
            a.up[c] = f_.get() + c * nn_;
        }
        // With a PML the sources come after its passes (pml_fused), in the CPU stepper's order;
        // many sources and receivers come after the kernel (kernel_points_).
        a.nsrc = pml_ || !kernel_points_ ? 0 : int(p_.sources.size());
        a.src_node = src_node_.get();
        a.src_scale = src_scale_.get();
        a.src_force = src_force_.get() + std::size_t(slot) * 3 * p_.sources.size();
        a.nrec = receivers && kernel_points_ ? int(p_.receivers.size()) : 0;
        a.rec_node = rec_node_.get();
        a.rec_out = rec_buf_.get() + std::size_t(slot) * 3 * p_.receivers.size();
        if constexpr (std::is_same_v<Real, double>) {
            if (tc_) {
                a.stages = p_.stages;
                a.kappa_factor = kappa_f_.get();
                a.shear_factor = shear_f_.get();
                a.b_fragments = bfrag_fused_.get();
                a.diag = diag_.get();
                a.handoff = handoff_.get();
                a.handoff_words = handoff_.size();
                a.tickets = tickets_.get();
                if (window) {
                    a.handoff += window->handoff_offset;
                    a.handoff_words = window->handoff_words;
                    a.tickets += 1 + (window - windows_.data());
                }
                if (++handoff_tag_ == 0) ++handoff_tag_;  // 0 is the buffer's initial content
                a.tag = handoff_tag_;
                if (window) view(a, *window);
                cuda::launch_tcovfem_fused_step(a, damped_, nullptr);
                return;
            }
        }
        if (window) view(a, *window);
        cuda::launch_fused_step<Real>(a, damped_, nullptr);
    }

    // The arguments of the whole model turned into a window's view: element planes [e_lo, e_hi)
    // (every array is z-slowest, so a view is an offset), node planes lo..hi written.
    void view(cuda::FusedStepArgs<Real>& a, const StepWindow& w) const {
        const std::size_t plane = std::size_t(p_.grid.n[0] + 1) * std::size_t(p_.grid.n[1] + 1);
        const std::size_t node0 = std::size_t(w.e_lo) * plane;
        a.nz = w.e_hi - w.e_lo;
        a.ids += std::size_t(w.e_lo) * std::size_t(p_.grid.n[0]) * std::size_t(p_.grid.n[1]);
        for (int c = 0; c < 3; ++c) {
            a.u[c] += node0;
            a.um[c] += node0;
            a.up[c] += node0;
        }
        a.a += node0;
        if (a.ih) a.ih += node0;
        if (a.mh) a.mh += node0;
        if (a.diag) a.diag += node0;
        a.skip_lo = w.lo - w.e_lo;
        a.skip_hi = w.e_hi - w.hi;
        a.node_offset = static_cast<long long>(node0);
    }

    // An overlapped step (windows_): the edges' windows, then their z phase on comm_ while the
    // interior's window runs, the later phases (y, x) after it. Each node's arithmetic is the
    // whole-model kernel's, so u+ is the same bit for bit; the exchange writes only ghost planes,
    // which no window writes after the edges. Host-staged MPI blocks the host until its boxes
    // have moved, so the interior is queued before it; NCCL is queued first so that its kernels
    // are ahead of the interior's blocks.
    void overlapped_step(int slot, bool receivers) {
        const std::size_t interior = windows_.size() - 1;
        for (std::size_t i = 0; i < interior; ++i) fused_step_kernel(slot, receivers, &windows_[i]);
        const bool exchange = exchange_enabled_;
        const bool fp64 = sizeof(Real) == 8, blocks_host = exchange && exchange_->device_exchange_blocks_host();
        if (exchange) {
            edges_done_.record(nullptr);
            VOXWAVE_CUDA_CHECK(cudaStreamWaitEvent(comm_, edges_done_.get(), 0));
            if (!blocks_host) exchange_->exchange_device_phases(next_state(), fp64, comm_, 0, 1);
        }
        fused_step_kernel(slot, receivers, &windows_[interior]);
        if (!exchange) return;
        if (blocks_host) exchange_->exchange_device_phases(next_state(), fp64, comm_, 0, 1);
        exchanged_.record(comm_);
        VOXWAVE_CUDA_CHECK(cudaStreamWaitEvent(nullptr, exchanged_.get(), 0));
        exchange_->exchange_device_phases(next_state(), fp64, nullptr, 1, exchange_->plan().phases.size());
    }

    // One step for batch slot `slot`: u^{n+1} ends in next_state(), with the sources added and
    // (when `receivers`) u^n at the receivers in the slot.
    void step_kernels(int slot, bool receivers) {
        if (!windows_.empty()) {
            overlapped_step(slot, receivers);
            return;
        }
        if (fused_) {
            fused_step_kernel(slot, receivers);
            pml_fused();
            // u^n is still intact: the kernel and the PML's passes write u^{n+1} to a third buffer.
            if (pml_ || !kernel_points_) points(slot, true, receivers && !kernel_points_);
        } else {
            pml_element_forces();
            step_stiffness();
            pml_nodes_before_update();
            update();
            pml_nodes_after_update();
            points(slot, true, receivers);
        }
        exchange_ghosts();
    }

    // The PML's passes (pml_correction_cuda.cuh). Split design: the element pass into f before
    // the stiffness product (both add into f; so a slab's exchange carries it), the layer nodes'
    // u+ from the whole f after the exchange, written over the update's u+ after it.
    void pml_element_forces() {
        if (pml_) pml_->add_element_forces(state(u_), state(um_), model_.b, pml_force_target());
    }
    void pml_nodes_before_update() {
        if (!pml_) return;
        cuda::PmlNodeForce<Real> force{};
        for (int c = 0; c < 3; ++c) force.f[c] = f_.get() + c * nn_;
        force.diag = tc_ ? diag_.get() : nullptr;  // the update kernel adds it to f
        force.keep = model_.keep;
        force.b = model_.b;
        pml_->update_nodes(state(u_), state(um_), force, nullptr);
    }
    void pml_nodes_after_update() {
        if (!pml_) return;
        Real* const out[3] = {um_.get(), um_.get() + nn_, um_.get() + 2 * nn_};
        pml_->write_nodes(out);
    }
    // Fused step: both passes after the kernel, on its u+ (a third buffer, f_; u and u- unchanged).
    void pml_fused() {
        if (!pml_) return;
        Real* const up[3] = {f_.get(), f_.get() + nn_, f_.get() + 2 * nn_};
        cuda::PmlTarget<Real> t{};
        for (int c = 0; c < 3; ++c) t.out[c] = up[c];
        t.scale = model_.a.get();
        t.ih = uniform_h_ ? nullptr : model_.ih.get();
        t.ih0 = model_.ih0;
        pml_->add_element_forces(state(u_), state(um_), model_.b, t);
        cuda::PmlNodeForce<Real> force{};
        for (int c = 0; c < 3; ++c) force.up[c] = up[c];
        force.a = model_.a.get();
        force.ih = uniform_h_ ? nullptr : model_.ih.get();
        force.mh = uniform_h_ ? nullptr : model_.mh.get();
        force.ih0 = model_.ih0;
        force.mh0 = model_.mh0;
        pml_->update_nodes(state(u_), state(um_), force, up);
    }
    cuda::PmlTarget<Real> pml_force_target() const {
        cuda::PmlTarget<Real> t{};
        for (int c = 0; c < 3; ++c) t.out[c] = f_.get() + c * nn_;
        return t;
    }
    // The three components of a state buffer.
    struct Components {
        const Real* p[3];
        operator const Real* const*() const { return p; }
    };
    Components state(const DeviceBuffer<Real>& b) const { return {{b.get(), b.get() + nn_, b.get() + 2 * nn_}}; }
    Real* next_state() const { return fused_ ? f_.get() : um_.get(); }
    // u^n becomes u^{n-1} and u^{n+1} becomes u^n.
    void rotate() {
        if (fused_) {
            um_.swap(u_);  // um_ = u^n, u_ = u^{n-1}
            u_.swap(f_);   // u_ = u^{n+1}, f_ = the old u^{n-1}, overwritten next step
        } else {
            u_.swap(um_);
        }
    }

    void update() {
        UpdateArgs<Real> a{};
        a.nn = nn_;
        for (int c = 0; c < 3; ++c) {
            a.u[c] = u_.get() + c * nn_;
            a.um[c] = um_.get() + c * nn_;
            a.f[c] = f_.get() + c * nn_;
        }
        a.a = model_.a.get();
        a.ih = model_.ih.get();
        a.mh = model_.mh.get();
        a.ih0 = model_.ih0;
        a.mh0 = model_.mh0;
        a.diag = tc_ ? diag_.get() : nullptr;
        a.keep = model_.keep;
        a.b = model_.b;
        const int threads = 256;
        if (update_blocks_ == 0) update_blocks_ = launch_blocks(nn_, threads);
        const int blocks = update_blocks_;
        if (uniform_h_) {
            if (tc_)
                update_kernel<Real, true, true><<<blocks, threads>>>(a);
            else
                update_kernel<Real, true, false><<<blocks, threads>>>(a);
        } else {
            if (tc_)
                update_kernel<Real, false, true><<<blocks, threads>>>(a);
            else
                update_kernel<Real, false, false><<<blocks, threads>>>(a);
        }
        VOXWAVE_CUDA_CHECK_LAUNCH("update_kernel");
    }

    // The sources of batch slot `slot` added to next_state() and (when `receivers`) u^n sampled into
    // the slot, in one launch.
    void points(int slot, bool sources, bool receivers) {
        PointArgs<Real> a{};
        a.entries = sources ? int(src_entry_node_.size()) : 0;
        a.nrec = receivers ? int(p_.receivers.size()) : 0;
        if (a.entries == 0 && a.nrec == 0) return;
        a.src_node = src_entry_node_.get();
        a.src_first = src_entry_first_.get();
        a.src_term = src_entry_term_.get();
        a.src_scale = src_scale_.get();
        a.src_force = src_force_.get() + std::size_t(slot) * 3 * p_.sources.size();
        a.rec_node = rec_node_.get();
        a.rec_out = rec_buf_.get() + std::size_t(slot) * 3 * p_.receivers.size();
        for (int c = 0; c < 3; ++c) {
            a.up[c] = next_state() + c * nn_;
            a.u[c] = u_.get() + c * nn_;
        }
        const int threads = 256;
        cuda::launch_programmatic(point_kernel<Real>,
                                  dim3(unsigned(launch_blocks(3 * std::size_t(a.entries + a.nrec), threads))),
                                  dim3(threads), 0, nullptr, cuda::fused_step_pdl(), a);
        VOXWAVE_CUDA_CHECK_LAUNCH("point_kernel");
    }

    // Force times wavelet of every source for steps n0 .. n0 + count - 1, rounded exactly as the
    // CPU stepper rounds them: out[(s * sources + q) * 3 + c].
    void source_forces(std::int64_t n0, std::int64_t count, std::vector<Real>& out) const {
        const std::size_t nsrc = p_.sources.size();
        for (std::int64_t s = 0; s < count; ++s) {
            const double t = double(n0 + s) * p_.dt;
            for (std::size_t q = 0; q < nsrc; ++q) {
                const double w = evaluate_wavelet(p_.sources[q].wavelet, t - p_.sources[q].time_shift);
                for (int c = 0; c < 3; ++c)
                    out[(std::size_t(s) * nsrc + q) * 3 + c] = static_cast<Real>(p_.sources[q].force[c] * w);
            }
        }
    }

    void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) override {
        const std::size_t nsrc = p_.sources.size(), nrec = p_.receivers.size();
        if (rec) rec->assign(std::size_t(count) * nrec * 3, 0.0);
        std::vector<Real> forces(kBatch * 3 * nsrc);
        for (std::int64_t b0 = 0; b0 < count; b0 += kBatch) {
            const std::int64_t nb = std::min(kBatch, count - b0);
            source_forces(n0 + b0, nb, forces);
            if (nsrc) src_force_.upload(forces.data(), std::size_t(nb) * 3 * nsrc);
            for (std::int64_t s = 0; s < nb; ++s) {
                step_kernels(int(s), rec != nullptr);
                rotate();
            }
            if (rec && nrec) rec_buf_.download(rec->data() + std::size_t(b0) * nrec * 3, std::size_t(nb) * nrec * 3);
        }
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }

    std::vector<double> receiver_values() override {
        points(0, false, true);
        std::vector<double> out(3 * p_.receivers.size());
        rec_buf_.download(out.data(), out.size());
        return out;
    }

    std::vector<double> stiffness_times(const std::vector<double>& v) override {
        if (v.size() != 3 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
        auto in = DeviceBuffer<Real>::zeros(3 * nn_), out = DeviceBuffer<Real>::zeros(3 * nn_);
        std::vector<Real> h(v.begin(), v.end());
        in.upload(h);
        stiffness(in.get(), nullptr, false, out.get());
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
        out.download(h.data(), h.size());
        std::vector<double> y(h.begin(), h.end());
        if (tc_)
            for (int c = 0; c < 3; ++c)
                for (std::size_t n = 0; n < nn_; ++n) y[c * nn_ + n] += host_diag_[n] * v[c * nn_ + n];
        return y;
    }

    double median_stiffness_seconds(int reps) override {
        auto out = DeviceBuffer<Real>::zeros(3 * nn_);
        std::vector<double> times;
        Event a, b;
        for (int r = 0; r < reps + 1; ++r) {
            VOXWAVE_CUDA_CHECK(cudaMemset(out.get(), 0, out.size() * sizeof(Real)));
            VOXWAVE_CUDA_CHECK(cudaEventRecord(a.get()));
            stiffness(u_.get(), um_.get(), damped_, out.get());
            VOXWAVE_CUDA_CHECK(cudaEventRecord(b.get()));
            const double s = elapsed_seconds(a, b);
            if (r > 0) times.push_back(s);  // the first is a warm-up
        }
        return median(std::move(times));
    }

    std::size_t device_bytes() const override { return bytes_needed(); }

    CudaTimeStepper::KernelSeconds kernel_seconds(std::int64_t n0, int reps) override {
        const std::size_t nsrc = p_.sources.size();
        std::vector<Real> forces(3 * nsrc);
        std::vector<double> ts, tu, tp;
        Event e0, e1, e2, e3;
        for (int r = 0; r < reps; ++r) {
            source_forces(n0 + r, 1, forces);
            if (nsrc) src_force_.upload(forces.data(), forces.size());
            VOXWAVE_CUDA_CHECK(cudaEventRecord(e0.get()));
            if (fused_) {
                fused_step_kernel(0, false);  // the stiffness time: no separate update or point kernel
                pml_fused();
            } else {
                pml_element_forces();
                stiffness(u_.get(), um_.get(), damped_, f_.get());
                pml_nodes_before_update();
            }
            VOXWAVE_CUDA_CHECK(cudaEventRecord(e1.get()));
            if (!fused_) {
                update();
                pml_nodes_after_update();
            }
            VOXWAVE_CUDA_CHECK(cudaEventRecord(e2.get()));
            if (!fused_ || pml_ || !kernel_points_) points(0, true, false);
            VOXWAVE_CUDA_CHECK(cudaEventRecord(e3.get()));
            rotate();
            ts.push_back(elapsed_seconds(e0, e1));
            tu.push_back(elapsed_seconds(e1, e2));
            tp.push_back(elapsed_seconds(e2, e3));
        }
        return {median(ts), median(tu), median(tp)};
    }

    CudaTimeStepper::HaloPhaseSeconds halo_phase_seconds(std::int64_t n0, int reps) override {
        if (!exchange_) throw RuntimeError("halo phase times need a halo exchange");
        const std::size_t nsrc = p_.sources.size();
        std::vector<Real> forces(3 * nsrc);
        std::vector<double> tk, tx, ts;
        Event e0, ek, ex;
        const bool enabled = exchange_enabled_;
        for (int r = 0; r < reps; ++r) {
            source_forces(n0 + r, 1, forces);
            if (nsrc) src_force_.upload(forces.data(), forces.size());
            VOXWAVE_CUDA_CHECK(cudaEventRecord(e0.get()));
            exchange_enabled_ = false;
            step_kernels(0, false);
            exchange_enabled_ = enabled;
            VOXWAVE_CUDA_CHECK(cudaEventRecord(ek.get()));
            exchange_ghosts();
            VOXWAVE_CUDA_CHECK(cudaEventRecord(ex.get()));
            rotate();
            VOXWAVE_CUDA_CHECK(cudaEventSynchronize(ex.get()));
            tk.push_back(elapsed_seconds(e0, ek));
            tx.push_back(elapsed_seconds(ek, ex));
            ts.push_back(elapsed_seconds(e0, ex));
        }
        return {median(tk), median(tx), median(ts)};
    }

    void set_exchange_enabled(bool enabled) override { exchange_enabled_ = enabled; }
    bool fused_step() const override { return fused_; }
    bool overlapped_exchange() const override { return !windows_.empty(); }
    bool fused_kernel_points() const override { return kernel_points_; }

private:
    std::size_t bytes_needed() const {
        return cuda_model_bytes(ne_, nn_, sizeof(Real) == 8 ? Precision::Fp64 : Precision::Fp32, tc_, !uniform_h_) +
               handoff_words() * sizeof(unsigned long long) + pml_bytes_;
    }
    void check_fits() const {
        check_cuda_model_fits(ne_, nn_, sizeof(Real) == 8 ? Precision::Fp64 : Precision::Fp32, tc_, !uniform_h_,
                              handoff_words() * sizeof(unsigned long long) + pml_bytes_);
    }
    // The row handoff's words: TCOVFEM's fused step only (the split designs and the moment step
    // have none), so that the memory check and device_bytes count what is allocated. The whole
    // model's launch uses the first ones, each window of an overlapped step its own after them.
    std::size_t handoff_words() const {
        if (!tc_ || !fused_) return 0;
        std::size_t words = cuda::fused_handoff_words(p_.grid.n[0], p_.grid.n[1], p_.grid.n[2]);
        for (const StepWindow& w : windows_) words += w.handoff_words;
        return words;
    }

    const WaveProblem& p_;
    std::size_t nn_, ne_;
    HaloExchange* exchange_ = nullptr;
    bool exchange_enabled_ = true;
    std::vector<StepWindow> windows_;  // an overlapped step's windows, the interior last; empty: not overlapped
    cudaStream_t comm_ = nullptr;      // the overlapped exchange's stream
    Event edges_done_{cudaEventDisableTiming}, exchanged_{cudaEventDisableTiming};

    bool tc_ = false, damped_ = false, uniform_h_ = true, staged_ = true, fused_ = false;
    FusedPoints fused_points_ = FusedPoints::Auto;
    // The fused kernel adds the sources (without a PML) and samples the receivers itself
    // (fused_points.hpp; always in an overlapped step's windows); false: points() after it.
    bool kernel_points_ = false;
    int update_blocks_ = 0;
    cuda::VoxelModelDevice<Real> model_;  // the model's tables and update scalars
    std::vector<Real> host_a_;
    std::vector<Real> host_ih_;  // 1 / (1 + h) per node with a sponge (the sources' scales); empty otherwise
    std::vector<double> host_diag_;
    DeviceBuffer<Real> u_, um_, f_, src_scale_, src_force_;
    DeviceBuffer<double> kappa_f_, shear_f_, diag_, rec_buf_;
    DeviceBuffer<std::uint32_t> bfrag_, bfrag_fused_;  // the split kernels' and the fused step's output orders
    DeviceBuffer<long long> src_node_, rec_node_, gather_nodes_;
    DeviceBuffer<long long> src_entry_node_, src_entry_first_, src_entry_term_;  // GroupSourceNodes, points()
    DeviceBuffer<double> gather_out_;
    DeviceBuffer<unsigned long long> handoff_;  // TCOVFEM's fused step: FusedStepArgs::handoff
    DeviceBuffer<unsigned> tickets_;
    unsigned handoff_tag_ = 0;
    std::unique_ptr<cuda::PmlCorrection<Real>> pml_;  // null without a PML
    std::size_t pml_bytes_ = 0;                       // what pml_ holds on the device
};

}  // namespace

std::size_t cuda_model_bytes(std::size_t elements, std::size_t nodes, Precision precision, bool tcovfem, bool sponge) {
    const std::size_t real = precision == Precision::Fp64 ? 8 : 4;
    std::size_t b = 9 * nodes * real + nodes * real + elements;
    if (sponge) b += 2 * nodes * real;
    if (tcovfem) b += nodes * sizeof(double);
    return b;
}

void check_cuda_model_fits(std::size_t elements, std::size_t nodes, Precision precision, bool tcovfem, bool sponge,
                           std::size_t extra_bytes) {
    std::size_t free_b = 0, total_b = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
    // + 64 MiB for scratch, receiver batches and the runtime's own needs.
    const double need =
        double(cuda_model_bytes(elements, nodes, precision, tcovfem, sponge) + extra_bytes) + double(64 << 20);
    if (need > double(free_b)) {
        char msg[256];
        std::snprintf(msg, sizeof msg,
                      "the model (%zu elements) needs %.2f GiB of GPU memory, the device has %.2f GiB free", elements,
                      need / double(1 << 30), double(free_b) / double(1 << 30));
        throw InputError("", "grid", msg);
    }
}

struct CudaTimeStepper::Impl {
    std::unique_ptr<EngineBase> engine;
    std::string device;
    const WaveProblem* problem = nullptr;  // the caller keeps it alive (as the engine does)
};

CudaTimeStepper::CudaTimeStepper(const WaveProblem& problem, CudaEngineOptions options)
    : impl_(std::make_unique<Impl>()) {
    const CudaDeviceInfo dev = cuda_device_for_run(options.device);
    // The host tables on a second thread while cudaSetDevice creates the context; both took
    // about 0.1 s on the paper model at 2 mm, where the whole setup took 0.24 s.
    std::future<HostTables<double>> tables64;
    std::future<HostTables<float>> tables32;
    if (problem.precision == Precision::Fp64)
        tables64 = std::async(std::launch::async, [&] { return host_tables<double>(problem, options); });
    else
        tables32 = std::async(std::launch::async, [&] { return host_tables<float>(problem, options); });
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    impl_->device = dev.name;
    impl_->problem = &problem;
    assert_run_rules(problem);
    if (problem.method == Method::Tcovfem && dev.major < 8)
        throw InputError("", "run.method",
                         "tcovfem needs INT8 Tensor Cores (compute capability 8.0 or newer); " + dev.name + " is " +
                             std::to_string(dev.major) + "." + std::to_string(dev.minor));
    if (problem.precision == Precision::Fp64)
        impl_->engine = std::make_unique<Engine<double>>(problem, options, tables64.get());
    else
        impl_->engine = std::make_unique<Engine<float>>(problem, options, tables32.get());
}

CudaTimeStepper::~CudaTimeStepper() = default;
std::size_t CudaTimeStepper::node_count() const { return impl_->engine->node_count(); }
void CudaTimeStepper::set_state(const std::vector<double>& up, const std::vector<double>& u) {
    impl_->engine->set_state(up, u);
}
void CudaTimeStepper::restart_shot() { impl_->engine->restart_shot(); }
std::vector<double> CudaTimeStepper::displacement() const { return impl_->engine->download(false); }
std::vector<double> CudaTimeStepper::previous_displacement() const { return impl_->engine->download(true); }
std::vector<double> CudaTimeStepper::gather(const std::vector<std::size_t>& nodes, bool previous) const {
    return impl_->engine->gather(nodes, previous);
}
void CudaTimeStepper::advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) {
    impl_->engine->advance(n0, count, rec);
}
std::vector<double> CudaTimeStepper::stiffness_times(const std::vector<double>& v) const {
    return impl_->engine->stiffness_times(v);
}
double CudaTimeStepper::median_stiffness_seconds(int reps) const {
    return impl_->engine->median_stiffness_seconds(std::max(1, reps));
}
CudaTimeStepper::KernelSeconds CudaTimeStepper::median_kernel_seconds(std::int64_t n0, int reps) {
    return impl_->engine->kernel_seconds(n0, std::max(1, reps));
}
CudaTimeStepper::HaloPhaseSeconds CudaTimeStepper::median_halo_phase_seconds(std::int64_t n0, int reps) {
    return impl_->engine->halo_phase_seconds(n0, std::max(1, reps));
}
void CudaTimeStepper::set_exchange_enabled(bool enabled) { impl_->engine->set_exchange_enabled(enabled); }
bool CudaTimeStepper::fused_step() const { return impl_->engine->fused_step(); }
bool CudaTimeStepper::overlapped_exchange() const { return impl_->engine->overlapped_exchange(); }
bool CudaTimeStepper::fused_kernel_points() const { return impl_->engine->fused_kernel_points(); }
CudaStepTiming CudaTimeStepper::time_steps(std::int64_t n0, std::int64_t steps) {
    Event a, b;
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    VOXWAVE_CUDA_CHECK(cudaEventRecord(a.get()));
    impl_->engine->advance(n0, steps, nullptr);
    VOXWAVE_CUDA_CHECK(cudaEventRecord(b.get()));
    return {elapsed_seconds(a, b), steps};
}
void CudaTimeStepper::write_slice(SlicePlane plane, int index, SliceQuantity q, float* out) const {
    const VoxelGrid& g = impl_->problem->grid;
    const int nx1 = g.n[0] + 1, ny1 = g.n[1] + 1, nz1 = g.n[2] + 1;
    const int w = plane == SlicePlane::YZ ? ny1 : nx1;
    const int h = plane == SlicePlane::XY ? ny1 : nz1;
    impl_->engine->write_slice(plane, index, q, w, h, out);
}

struct CudaFloatArray::Storage {
    DeviceBuffer<float> buffer;
};
// At least one float, so that data() is never null; not zeroed.
CudaFloatArray::CudaFloatArray(std::size_t count)
    : storage_(std::make_unique<Storage>(Storage{DeviceBuffer<float>(std::max<std::size_t>(1, count))})),
      data_(storage_->buffer.get()),
      count_(count) {}
CudaFloatArray::~CudaFloatArray() = default;
std::vector<float> CudaFloatArray::download() const {
    std::vector<float> h(count_);
    storage_->buffer.download(h.data(), count_);
    return h;
}

std::vector<double> CudaTimeStepper::receiver_displacements() const { return impl_->engine->receiver_values(); }
std::size_t CudaTimeStepper::device_bytes() const { return impl_->engine->device_bytes(); }
std::string CudaTimeStepper::device_name() const { return impl_->device; }

void run_wave_cuda(const WaveProblem& p, const ProgressFn& progress, Result& r, CudaEngineOptions options) {
    const auto t0 = std::chrono::steady_clock::now();
    auto stepper = std::make_unique<CudaTimeStepper>(p, options);
    r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    record_wave_cuda(*stepper, p, progress, r);
    release_engine(r, [&] { stepper.reset(); });
}

void record_wave_cuda(CudaTimeStepper& stepper, const WaveProblem& p, const ProgressFn& progress, Result& r) {
    const std::size_t nr = p.receivers.size(), nt = std::size_t(p.steps);
    r.time.resize(nt);
    r.displacement.assign(nr * nt * 3, 0.0);
    r.velocity.assign(nr * nt * 3, 0.0);
    // u at the receivers for n = 0 .. steps (the last one closes the last velocity), and u^{-1} = 0.
    std::vector<double> samples(std::size_t(nt + 1) * nr * 3, 0.0), batch;
    const std::int64_t chunk = std::max<std::int64_t>(kBatch, (p.steps / 100 / kBatch + 1) * kBatch);
    SnapshotTaker snapshots(p, r.snapshots);
    const auto& nodes = p.snapshot_nodes;
    for (std::int64_t n0 = 0; n0 < p.steps;) {
        // A chunk ends where a snapshot is due; that step runs alone between the snapshot's reads.
        std::int64_t count = std::min({chunk, p.steps - n0, snapshots.next_step() - n0});
        if (count == 0) {
            snapshots.before_step(stepper.gather(nodes, false),
                                  snapshots.wants_velocity() ? stepper.gather(nodes, true) : std::vector<double>{});
            count = 1;
        }
        stepper.advance(n0, count, &batch);
        if (snapshots.due(n0)) snapshots.after_step(stepper.gather(nodes, false));
        std::copy(batch.begin(), batch.end(), samples.begin() + std::size_t(n0) * nr * 3);
        n0 += count;
        if (progress && !progress(n0, p.steps)) throw Cancelled{};
    }
    {
        // u^N: one more sampling pass without stepping.
        const std::vector<double> last = stepper.receiver_displacements();
        std::copy(last.begin(), last.end(), samples.begin() + nt * nr * 3);
    }
    for (std::size_t t = 0; t < nt; ++t) {
        r.time[t] = double(t) * p.dt;
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < 3; ++c) {
                const double before = t == 0 ? 0.0 : samples[((t - 1) * nr + i) * 3 + c];
                r.displacement[(i * nt + t) * 3 + c] = samples[(t * nr + i) * 3 + c];
                r.velocity[(i * nt + t) * 3 + c] = (samples[((t + 1) * nr + i) * 3 + c] - before) / (2.0 * p.dt);
            }
    }
}

double measure_device_copy_bandwidth_gbs(std::size_t bytes) {
    std::string why;
    if (cuda_devices(&why).empty()) throw InputError("", "backend", why);
    auto a = DeviceBuffer<unsigned char>::zeros(bytes), b = DeviceBuffer<unsigned char>::zeros(bytes);
    VOXWAVE_CUDA_CHECK(cudaMemset(a.get(), 1, bytes));
    std::vector<double> times;
    Event e0, e1;
    for (int r = 0; r < 8; ++r) {
        VOXWAVE_CUDA_CHECK(cudaEventRecord(e0.get()));
        VOXWAVE_CUDA_CHECK(cudaMemcpy(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
        VOXWAVE_CUDA_CHECK(cudaEventRecord(e1.get()));
        const double s = elapsed_seconds(e0, e1);
        if (r > 0) times.push_back(s);
    }
    return 2.0 * double(bytes) / median(std::move(times)) / 1e9;
}

}  // namespace voxwave
