// The spectral voxel elements on the GPU (sem_stepper_cuda.hpp states the design): the host side
// of the column sweep, whose kernel is sem_cell_sweep_kernel.cuh's (the order of the sums at the
// cells' shared nodes is sem_cell_schedule.hpp's), and of the element-parallel scatter, whose
// kernels are sem_scatter_kernel.cuh's; sem_step_schedule.hpp chooses between them.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <string>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "core/programmatic_launch.cuh"
#include "wave/central_difference.hpp"
#include "wave/sem_cell_schedule.hpp"
#include "wave/sem_cell_sweep_kernel.cuh"
#include "wave/sem_mesh.hpp"
#include "wave/sem_pml_correction_cuda.cuh"
#include "wave/sem_points_kernel.cuh"
#include "wave/sem_scatter_kernel.cuh"
#include "wave/sem_step_schedule.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wave_run.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

using cuda::DeviceBuffer;
using cuda::Event;
using namespace sem_cuda;

// The steps of one advance() call in run_sem_cuda: at least 512, or about a hundredth of a longer
// run (record_wave_cuda's chunks are multiples of its 512-step batch).
std::int64_t sem_record_chunk(std::int64_t steps) { return std::max<std::int64_t>(512, steps / 100 + 1); }

struct EngineBase {
    virtual ~EngineBase() = default;
    virtual std::size_t node_count() const = 0;
    virtual void set_state(const std::vector<double>& up, const std::vector<double>& u) = 0;
    virtual std::vector<double> download(bool previous) = 0;
    // rec: u at the receivers before each step; after: u at the receivers after the last step
    // (SemCudaTimeStepper::advance).
    virtual void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec, std::vector<double>* after) = 0;
    virtual void settle() = 0;                          // the deferred last update done (FusedTail)
    virtual std::vector<double> receiver_values() = 0;  // u at the receivers now, [r * 3 + c]
    virtual std::vector<double> stiffness_times(const std::vector<double>& v) = 0;
    virtual void set_halo_exchange(HaloExchange* exchange) = 0;
    virtual std::size_t device_bytes() const = 0;
    virtual int cell_planes() const = 0;
    virtual int cell_width() const = 0;
    virtual SemCudaSchedule schedule() const = 0;
};

template <class Real>
struct Engine final : EngineBase {
    // schedule: resolved (sweep or scatter; SemCudaTimeStepper applies the automatic rule).
    Engine(const WaveProblem& p, int cell_planes, SemCudaSchedule schedule) : p_(p) {
        const SemMesh mesh = sem_mesh(p.grid, p.order);
        nn_ = mesh.node_count();
        shape_ = {p.grid.n[0], p.grid.n[1], p.grid.n[2], mesh.n[0], mesh.n[1], (unsigned long long)nn_};
        tab_ = sem_tables<Real>(mesh.gll);
        if (p.grid.element_count() > 0xffffffffull)
            throw InputError("", "grid", "sem on CUDA takes at most 2^32 elements");
        const int width = cells_per_block(p.order);
        if (cell_planes <= 0) cell_planes = automatic_cell_planes(p.grid, width, sweep_blocks_per_sm(p.order));
        cells_grid_ = sem_cell_grid(p.grid, width, cell_planes);
        const std::vector<unsigned char> solid = sem_cell_solid(p.grid, cells_grid_);
        const SemCellLaunches launches = sem_cell_launches(cells_grid_, solid);
        std::vector<unsigned> elements;  // the solid elements, x-fastest
        for (std::size_t e = 0; e < p.grid.element_count(); ++e)
            if (p.grid.ids[e] != kVoidId) elements.push_back(unsigned(e));
        schedule_ = schedule;  // resolved by SemCudaTimeStepper
        if (schedule_ == SemCudaSchedule::Scatter) {
            element_words_ = DeviceBuffer<unsigned long long>(
                sem_scatter_element_words(elements, p.order, p.grid.n[0], p.grid.n[1], p.grid.ids));
            owned_ = DeviceBuffer<unsigned long long>(
                sem_scatter_owned(elements, p.order, p.grid.n[0], p.grid.n[1], p.grid.n[2]));
            std::vector<unsigned long long> source_nodes;
            for (const auto& src : p.sources) source_nodes.push_back(src.node);
            source_places_ = sem_scatter_source_places(elements, p.order, p.grid.n[0], p.grid.n[1], source_nodes);
            f1_ = DeviceBuffer<Real>::zeros(3 * mesh.node_count());
            f2_ = DeviceBuffer<Real>::zeros(3 * mesh.node_count());
        } else {
            cell_begin_ = launches.begin;
            cells_ = DeviceBuffer<unsigned>(launches.cells);
            cell_solid_ = DeviceBuffer<unsigned char>(solid);
            ids_ = DeviceBuffer<unsigned char>(p.grid.ids);
        }
        std::vector<Real> lam(256, Real(0)), mu(256, Real(0));
        for (std::size_t m = 0; m < p.materials.size(); ++m) {
            lam[m + 1] = static_cast<Real>(p.materials[m].lame_lambda());
            mu[m + 1] = static_cast<Real>(p.materials[m].shear_modulus());
        }
        lambda_ = DeviceBuffer<Real>(lam);
        mu_ = DeviceBuffer<Real>(mu);
        UpdateCoefficients<Real> c = update_coefficients<Real>(p);
        a_ = DeviceBuffer<Real>(c.dt2_inv_mass);
        ih_ = DeviceBuffer<Real>(c.inv_one_plus_h);
        mh_ = DeviceBuffer<Real>(c.one_minus_h);
        host_a_ = std::move(c.dt2_inv_mass);
        const bool uniform_h =
            std::all_of(c.inv_one_plus_h.begin(), c.inv_one_plus_h.end(),
                        [&](Real x) { return x == c.inv_one_plus_h.front(); }) &&
            std::all_of(c.one_minus_h.begin(), c.one_minus_h.end(), [&](Real x) { return x == c.one_minus_h.front(); });
        factors_ = {a_.get(), uniform_h ? nullptr : ih_.get(), mh_.get(),
                    c.inv_one_plus_h.empty() ? Real(1) : c.inv_one_plus_h.front(),
                    c.one_minus_h.empty() ? Real(1) : c.one_minus_h.front()};
        host_ih_ = std::move(c.inv_one_plus_h);
        u_ = DeviceBuffer<Real>::zeros(3 * nn_);
        up_ = DeviceBuffer<Real>::zeros(3 * nn_);
        un_ = DeviceBuffer<Real>::zeros(3 * nn_);
        f_ = DeviceBuffer<Real>::zeros(3 * nn_);
        std::vector<unsigned long long> rec;
        for (const auto& r : p.receivers) rec.push_back(r.node);
        receivers_ = DeviceBuffer<unsigned long long>(rec);
        beta_over_dt_ = static_cast<Real>(p.rayleigh.beta / p.dt);
        if (p.boundary.has_pml()) pml_ = std::make_unique<cuda::SemPmlCorrectionCuda<Real>>(p);
        // The element kernel's occupancy and whether the device takes programmatic launches, which
        // scatter_elements reads and a process queries once: with the set-up, not in the first step.
        if (schedule_ == SemCudaSchedule::Scatter) {
            cuda::device_runs_programmatic_launch();
            scatter_blocks_per_sm(p.order, beta_over_dt_ != Real(0));
        }
        // The receivers' sample buffer of a run's first chunk, with the engine's other buffers (as the
        // voxel engine's), not in the time loop's first advance().
        // One slot more: the samples after the run's last step, copied with its last chunk's.
        if (!p.receivers.empty()) sample_slots(std::size_t(std::min(p.steps, sem_record_chunk(p.steps))) + 1);
    }

    std::size_t node_count() const override { return nn_; }

    void set_state(const std::vector<double>& up, const std::vector<double>& u) override {
        settle();  // the force buffers zero
        const auto held = [this](std::size_t n) { return host_a_[n] == Real(0); };
        const std::vector<Real> hu = stepper_state<Real>(u, 3, nn_, held), hp = stepper_state<Real>(up, 3, nn_, held);
        u_.upload(hu);
        up_.upload(hp);
        if (pml_) pml_->reset(up_.get(), u_.get());
    }

    std::vector<double> download(bool previous) override {
        settle();
        const std::vector<Real> h = (previous ? up_ : u_).download();
        return std::vector<double>(h.begin(), h.end());
    }

    static int cells_per_block(int order) {
        return order == 2 ? kCellsPerBlock<2> : (order == 3 ? kCellsPerBlock<3> : kCellsPerBlock<4>);
    }

    static int device_sms() {
        int device = 0, sms = 0;
        VOXWAVE_CUDA_CHECK(cudaGetDevice(&device));
        VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
        return std::max(sms, 1);
    }

    // Element planes a cell of `width` elements along x (sem_cell_planes_for): whole waves of
    // blocks at the sweep's occupancy, which its registers set (kSweepBlocksPerSm).
    static int automatic_cell_planes(const VoxelGrid& g, int width, int blocks_per_sm) {
        return sem_cell_planes_for(g, width, (long long)device_sms() * std::max(blocks_per_sm, 1));
    }

    // Blocks of the undamped update sweep that an SM holds at once.
    template <int P>
    static int sweep_blocks_per_sm() {
        int blocks = 0;
        VOXWAVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, sem_cell_sweep<P, Real, true, false>,
                                                                         kCellsPerBlock<P> * (P + 1) * (P + 1), 0));
        return blocks;
    }
    static int sweep_blocks_per_sm(int order) {
        return order == 2 ? sweep_blocks_per_sm<2>()
                          : (order == 3 ? sweep_blocks_per_sm<3>() : sweep_blocks_per_sm<4>());
    }

    template <int P, bool Update, bool Damped>
    void sweep(const unsigned* list, std::size_t cells, Real half_ds, const Real* u, const Real* up, Real keep, Real b,
               Real* f, Real* u_next) const {
        constexpr int E = kCellsPerBlock<P>;
        sem_cell_sweep<P, Real, Update, Damped><<<unsigned(cells), E*(P + 1) * (P + 1)>>>(
            list, cell_solid_.get(), ids_.get(), lambda_.get(), mu_.get(), tab_, shape_, cells_grid_, half_ds, u, up,
            keep, b, f, u_next, factors_);
    }

    template <int P, bool Update>
    void sweep(const unsigned* list, std::size_t cells, bool damped, Real half_ds, const Real* u, const Real* up,
               Real keep, Real b, Real* f, Real* u_next) const {
        if constexpr (Update) {
            if (damped) return sweep<P, true, true>(list, cells, half_ds, u, up, keep, b, f, u_next);
        }
        sweep<P, Update, false>(list, cells, half_ds, u, up, keep, b, f, u_next);
    }

    // The eight colour launches of one step (sem_cell_schedule.hpp). Update: u_next = u+ (central
    // differences on K w, w = (1 + b) u - b u_prev when damped); otherwise f = K u (u_prev unused).
    template <bool Update>
    void colour_launches(const Real* u, const Real* up, bool damped, Real b, Real* f, Real* u_next) const {
        const Real half_ds = static_cast<Real>(0.5 * p_.grid.spacing), keep = Real(1) + b;
        for (int colour = 0; colour < 8; ++colour) {
            const std::size_t begin = cell_begin_[colour], cells = cell_begin_[colour + 1] - begin;
            if (cells == 0) continue;
            const unsigned* list = cells_.get() + begin;
            switch (p_.order) {
                case 2:
                    sweep<2, Update>(list, cells, damped, half_ds, u, up, keep, b, f, u_next);
                    break;
                case 3:
                    sweep<3, Update>(list, cells, damped, half_ds, u, up, keep, b, f, u_next);
                    break;
                default:
                    sweep<4, Update>(list, cells, damped, half_ds, u, up, keep, b, f, u_next);
            }
            VOXWAVE_CUDA_CHECK_LAUNCH("sem_cell_sweep");
        }
    }

    // Whether a fused launch of `blocks` blocks is a programmatic dependent of the one before (the
    // fused launches follow one another with nothing between them, advance_fused; the kernel's
    // comment says what overlaps). Not where the launch leaves an SM's worth of places free: the
    // next launch's blocks take free places while this one runs, so an SM may then start with as
    // many blocks as it holds (c) where the block scheduler alone would give each about the mean.
    // At blocks > (c - 1) SMs some SM holds c blocks either way. Measured on an H200 (132 SMs) at
    // p = 4 and 15^3 elements (844 blocks): FP64 (c = 7, 792 < 844) 21.8 -> 20.7 us a step when
    // dependent, FP32 (fewer registers, c of 8 or more: 924 or more > 844) 15.6 -> 16.6 us.
    template <int P, bool Damped>
    bool fused_programmatic(unsigned blocks) const {
        return cuda::device_runs_programmatic_launch() &&
               (long long)blocks > (long long)(scatter_blocks_per_sm<P, Damped>() - 1) * sms_;
    }

    // Blocks of the fused element kernel an SM holds (its plain form takes the same registers and
    // shared memory).
    template <int P, bool Damped>
    static int scatter_blocks_per_sm() {
        static const int per_sm = [] {
            int b = 0;
            VOXWAVE_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                &b, sem_element_scatter<P, Real, Damped, true>, kScatterElementThreads<P, Real>, 0));
            return b;
        }();
        return per_sm;
    }

    // The same at a run's order and damping (the set-up's query).
    template <int P>
    static int scatter_blocks_per_sm(bool damped) {
        return damped ? scatter_blocks_per_sm<P, true>() : scatter_blocks_per_sm<P, false>();
    }
    static int scatter_blocks_per_sm(int order, bool damped) {
        return order == 2 ? scatter_blocks_per_sm<2>(damped)
                          : (order == 3 ? scatter_blocks_per_sm<3>(damped) : scatter_blocks_per_sm<4>(damped));
    }

    // The element kernel; `fused` non-null: its fused form (SemScatterFused), u and up then u^{n-1}
    // and u^{n-2}. `points` as the kernel takes them.
    template <int P, bool Damped>
    void scatter_elements(const Real* u, const Real* up, Real b, Real* f, const SemPointWork& points,
                          const SemScatterFused<Real>* fused) const {
        const unsigned count = unsigned(element_words_.size());
        if (count == 0) return;
        constexpr int threads = kScatterElementThreads<P, Real>;
        // The receivers' block (the grid's last) beside the elements' blocks.
        const int sampler = points.receiver_count > 0 ? 1 : 0;
        const unsigned element_blocks =
                           scatter_element_blocks<P, Real>(count, scatter_blocks_per_sm<P, Damped>(), sms_, sampler),
                       blocks = element_blocks + unsigned(sampler);
        const ScatterBlockSplit split = scatter_block_split(count, element_blocks);
        const SemPointWork launch_points = sem_scatter_launch_sources<P, Real>(points, split);
        const Real half_ds = static_cast<Real>(0.5 * p_.grid.spacing), keep = Real(1) + b;
        if (fused)
            cuda::launch_programmatic(sem_element_scatter<P, Real, Damped, true>, dim3(blocks), dim3(threads), 0,
                                      nullptr, fused_programmatic<P, Damped>(blocks), element_words_.get(), split,
                                      lambda_.get(), mu_.get(), tab_, shape_, half_ds, u, up, keep, b, f, launch_points,
                                      *fused);
        else
            sem_element_scatter<P, Real, Damped, false><<<blocks, threads>>>(element_words_.get(), split, lambda_.get(),
                                                                             mu_.get(), tab_, shape_, half_ds, u, up,
                                                                             keep, b, f, launch_points);
        VOXWAVE_CUDA_CHECK_LAUNCH("sem_element_scatter");
    }
    template <int P>
    void scatter_elements(const Real* u, const Real* up, bool damped, Real b, Real* f, const SemPointWork& points,
                          const SemScatterFused<Real>* fused) const {
        if (damped)
            scatter_elements<P, true>(u, up, b, f, points, fused);
        else
            scatter_elements<P, false>(u, up, b, f, points, fused);
    }
    void scatter_elements(const Real* u, const Real* up, bool damped, Real b, Real* f, const SemPointWork& points,
                          const SemScatterFused<Real>* fused = nullptr) const {
        switch (p_.order) {
            case 2:
                return scatter_elements<2>(u, up, damped, b, f, points, fused);
            case 3:
                return scatter_elements<3>(u, up, damped, b, f, points, fused);
            default:
                return scatter_elements<4>(u, up, damped, b, f, points, fused);
        }
    }
    // The scatter's unfused step (sem_scatter_kernel.cuh). Update: f += K w over every solid
    // element, then u_next = u+ from f at every node (f back to zero) with `points`; otherwise
    // f += K u (u_prev unused, f zero before).
    template <bool Update>
    void scatter_launches(const Real* u, const Real* up, bool damped, Real b, Real* f, Real* u_next,
                          const SemPointWork& points) const {
        scatter_elements(u, up, damped, b, f, SemPointWork{});
        if constexpr (Update) scatter_update(u, up, f, u_next, points);
    }
    // The scatter's node kernel: u_next = u+ from the complete force f, f back to zero, `points`.
    void scatter_update(const Real* u, const Real* up, Real* f, Real* u_next, const SemPointWork& points) const {
        const unsigned blocks = unsigned((nn_ + kScatterNodeThreads - 1) / kScatterNodeThreads);
        sem_scatter_update<Real><<<blocks, kScatterNodeThreads>>>(nn_, u, up, f, u_next, factors_, points);
        VOXWAVE_CUDA_CHECK_LAUNCH("sem_scatter_update");
    }

    // The step's product and update by the schedule chosen; u_next = u+. The scatter's update
    // takes `points` (sem_points_kernel.cuh); the sweep none.
    template <bool Update>
    void product(const Real* u, const Real* up, bool damped, Real b, Real* f, Real* u_next,
                 const SemPointWork& points) const {
        if (schedule_ == SemCudaSchedule::Scatter)
            scatter_launches<Update>(u, up, damped, b, f, u_next, points);
        else
            colour_launches<Update>(u, up, damped, b, f, u_next);
    }

    // The layer's passes on the sweep's u+ (sem_pml_correction_cuda.cuh), before the sources.
    void correct_pml() {
        const bool uniform_h = factors_.inv_one_plus_h == nullptr;
        pml_->correct(u_.get(), up_.get(), beta_over_dt_, un_.get(),
                      {a_.get(), uniform_h ? nullptr : ih_.get(), uniform_h ? nullptr : mh_.get(), factors_.uniform_ih,
                       factors_.uniform_mh});
    }

    // The step from u (state n) to u+; `samples` (device memory, null: none) takes u at the
    // receivers of state n. The point work rides in the scatter's update where it can (its
    // sources not where a PML's passes rewrite u+ after the update), else one sem_point_work
    // launch a batch of sources after the step's passes.
    void step(std::int64_t n, double* samples) {
        batch_sources(n);
        SemPointWork work = sampling(samples), in_update;
        std::size_t next_batch = 0;
        if (schedule_ == SemCudaSchedule::Scatter) {
            in_update = work;
            work.receiver_count = 0;
            if (!pml_ && !batches_.empty()) in_update.sources = batches_[next_batch++];
        }
        product<true>(u_.get(), up_.get(), beta_over_dt_ != Real(0), beta_over_dt_, f_.get(), un_.get(), in_update);
        if (pml_) correct_pml();
        do {
            work.sources = next_batch < batches_.size() ? batches_[next_batch++] : SemSourceBatch{};
            launch_point_work(work);
            work.receiver_count = 0;
        } while (next_batch < batches_.size());
        // u- <- u, u <- u+, and the old u- is the next step's output (every node with mass is
        // written; massless nodes stay zero in all three buffers).
        up_.swap(un_);
        u_.swap(up_);
        exchange_ghosts();
    }

    // The sources of step n with a force into batches_ (kMaxPointSources a batch), with their
    // places in the scatter's element kernel.
    void batch_sources(std::int64_t n) {
        const double t = double(n) * p_.dt;
        batches_.clear();
        for (std::size_t i = 0; i < p_.sources.size(); ++i) {
            const auto& s = p_.sources[i];
            const double wv = evaluate_wavelet(s.wavelet, t - s.time_shift);
            if (wv == 0.0) continue;
            if (batches_.empty() || batches_.back().count == kMaxPointSources) batches_.emplace_back();
            SemSourceBatch& batch = batches_.back();
            batch.node[batch.count] = s.node;
            // No place (the sweep schedule computes none): kNoElement, so no element kernel takes it as slot 0.
            const bool placed = i < source_places_.size();
            batch.element[batch.count] = placed ? source_places_[i].element : SemSourceBatch::kNoElement;
            batch.point[batch.count] = placed ? source_places_[i].point : 0;
            for (int c = 0; c < 3; ++c) batch.force[batch.count][c] = s.force[c] * wv;
            ++batch.count;
        }
    }

    // Point work that samples the receivers into `samples` (null: none).
    SemPointWork sampling(double* samples) const {
        SemPointWork w;
        if (samples && !p_.receivers.empty()) {
            w.receivers = receivers_.get();
            w.receiver_count = int(p_.receivers.size());
            w.samples = samples;
        }
        return w;
    }

    // The fused scatter (SemScatterFused) runs where nothing acts on u+ between two element
    // launches: no PML, no ghost exchange, at most one batch of sources.
    bool fused_steps() const {
        return schedule_ == SemCudaSchedule::Scatter && !pml_ && !exchange_ &&
               p_.sources.size() <= std::size_t(kMaxPointSources);
    }

    // The force buffers of the fused scatter, in rotation order.
    std::array<Real*, 3> force_buffers() { return {f_.get(), f1_.get(), f2_.get()}; }

    // `count` steps of the fused scatter from state n0, the receivers sampled before each step into
    // samples[k] (null: none). From a settled state (u_ = u^{n0}, up_ = u^{n0-1}, the force buffers
    // zero) one plain element launch (K u^{n0} - F(t_{n0})) and count - 1 fused ones (each forms
    // u^m, m = n0 + k, adds K u^m - F(t_m) into the next force buffer and clears the third); from a
    // pending tail count fused ones, the first forming u^{n0}. Each launch puts the sources of the
    // step of its force there (sem_element_scatter). The last update is left pending (FusedTail).
    // The buffer rotation is step()'s.
    void advance_fused(std::int64_t n0, std::int64_t count, double* samples) {
        if (count <= 0) return;
        const int nr = int(p_.receivers.size());
        const bool damped = beta_over_dt_ != Real(0);
        const std::array<Real*, 3> f = force_buffers();
        int cur = tail_.cur;
        std::int64_t k = 0;
        if (!tail_.pending) {
            cur = 0;
            SemPointWork w = sampling(samples);
            w.sources = step_sources(n0);
            scatter_elements(u_.get(), up_.get(), damped, beta_over_dt_, f[cur], w);
            k = 1;
        }
        for (; k < count; ++k) {
            SemPointWork w = sampling(samples ? samples + std::size_t(k) * nr * 3 : nullptr);
            w.sources = step_sources(n0 + k);
            const int next = (cur + 1) % 3, clear = (cur + 2) % 3;
            const SemScatterFused<Real> fused{f[cur], f[clear], un_.get(), owned_.get(), factors_};
            scatter_elements(u_.get(), up_.get(), damped, beta_over_dt_, f[next], w, &fused);
            cur = next;
            up_.swap(un_);
            u_.swap(up_);
        }
        tail_ = {true, cur};
    }

    // The one batch of step n's sources (fused_steps), none where no source has a force.
    SemSourceBatch step_sources(std::int64_t n) {
        batch_sources(n);
        return batches_.empty() ? SemSourceBatch{} : batches_.front();
    }

    // The pending tail's update (FusedTail): u+ from the complete force (its sources in it), the
    // force buffer before it cleared (the third is zero), the buffers rotated.
    void settle() override {
        if (!tail_.pending) return;
        tail_.pending = false;
        const std::array<Real*, 3> f = force_buffers();
        scatter_update(u_.get(), up_.get(), f[tail_.cur], un_.get(), SemPointWork{});
        VOXWAVE_CUDA_CHECK(cudaMemsetAsync(f[(tail_.cur + 2) % 3], 0, 3 * nn_ * sizeof(Real)));
        up_.swap(un_);
        u_.swap(up_);
    }

    void set_halo_exchange(HaloExchange* exchange) override {
        settle();  // the exchange's steps are not fused
        if (exchange && exchange->plan().node_count() != nn_)
            throw std::logic_error("SemCudaTimeStepper: the exchange's plan is not of this node grid");
        exchange_ = exchange;
    }

    // A subdomain of a distributed run: the ghost nodes of u+ (now u_) from the neighbours, in
    // stream order after the step's kernels. u_ is component major in the x-fastest numbering the
    // exchange's boxes are in, so the exchange moves it directly. The ghost nodes are held (no
    // mass term): the colour launches give them an extrapolated value that this overwrites, as
    // the CPU engine's exchange does, and a ghost node no solid cell writes keeps a buffer's
    // older value until this overwrites it too.
    void exchange_ghosts() {
        if (exchange_) exchange_->exchange_device(u_.get(), sizeof(Real) == 8, nullptr);
    }

    // The samples of `count` steps: one buffer kept between calls (an allocation and its free
    // each chunk would stall the stream), grown when a chunk is longer, and its pinned host copy
    // (a copy from device memory into pageable memory goes through the driver's staging buffer).
    double* sample_slots(std::size_t count) {
        const std::size_t need = std::max<std::size_t>(count, 1) * p_.receivers.size() * 3;
        if (samples_.size() < need) {
            samples_ = DeviceBuffer<double>(need);
            host_samples_ = cuda::PinnedHostBuffer<double>(need);
        }
        return samples_.get();
    }

    // `count` samples from slot `first` of the sample buffer into `out`, through its pinned copy.
    void copy_samples(std::size_t first, std::size_t count, double* out) {
        if (count == 0) return;
        VOXWAVE_CUDA_CHECK(cudaMemcpyAsync(host_samples_.get() + first, samples_.get() + first, count * sizeof(double),
                                           cudaMemcpyDeviceToHost, nullptr));
        VOXWAVE_CUDA_CHECK(cudaStreamSynchronize(nullptr));
        std::copy(host_samples_.get() + first, host_samples_.get() + first + count, out);
    }

    // sem_point_work over u_ and un_, if `w` has anything to do.
    void launch_point_work(const SemPointWork& w) const {
        const int threads = std::max(w.receiver_count, w.sources.count);
        if (threads == 0) return;
        sem_point_work<Real><<<(threads + 63) / 64, 64>>>(w, nn_, u_.get(), un_.get(), a_.get(), ih_.get());
        VOXWAVE_CUDA_CHECK_LAUNCH("sem_point_work");
    }

    // u at the receivers of the state now into `samples` (device memory): the gather of the current
    // u, or with a pending tail u+ formed at the receivers alone (sem_scatter_sample_formed).
    void sample_receivers(double* samples) {
        SemPointWork w = sampling(samples);
        if (w.receiver_count == 0) return;
        if (!tail_.pending) return launch_point_work(w);
        const SemScatterFused<Real> fused{force_buffers()[tail_.cur], nullptr, nullptr, nullptr, factors_};
        const int threads = std::min(32 * ((w.receiver_count + 31) / 32), kScatterNodeThreads);
        sem_scatter_sample_formed<Real><<<1, threads>>>(w, fused, nn_, u_.get(), up_.get());
        VOXWAVE_CUDA_CHECK_LAUNCH("sem_scatter_sample_formed");
    }

    std::vector<double> receiver_values() override {
        const std::size_t row = p_.receivers.size() * 3;
        std::vector<double> out(row);
        if (row == 0) return out;
        sample_receivers(sample_slots(1));
        copy_samples(0, row, out.data());
        return out;
    }

    // The samples of the steps (rec) and after them (after) come back in one copy, the run's
    // synchronisation. The last update of the fused scatter stays pending (FusedTail).
    void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec, std::vector<double>* after) override {
        const std::size_t nr = p_.receivers.size(), row = nr * 3, steps = std::size_t(count);
        const bool with_steps = rec && nr > 0, with_after = after && nr > 0;
        double* samples = with_steps || with_after ? sample_slots(steps + 1) : nullptr;
        double* step_samples = with_steps ? samples : nullptr;
        if (fused_steps()) {
            advance_fused(n0, count, step_samples);
        } else {
            settle();
            for (std::int64_t k = 0; k < count; ++k)
                step(n0 + k, step_samples ? step_samples + std::size_t(k) * row : nullptr);
        }
        if (with_after) sample_receivers(samples + steps * row);
        if (rec) rec->assign(steps * row + (with_steps && with_after ? row : 0), 0.0);
        if (after) after->assign(row, 0.0);
        if (with_steps) {
            copy_samples(0, rec->size(), rec->data());
            if (with_after) {
                std::copy(rec->end() - std::ptrdiff_t(row), rec->end(), after->begin());
                rec->resize(steps * row);
            }
        } else if (with_after) {
            copy_samples(steps * row, row, after->data());
        }
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }

    std::vector<double> stiffness_times(const std::vector<double>& v) override {
        if (v.size() != 3 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
        DeviceBuffer<Real> in(std::vector<Real>(v.begin(), v.end()));
        auto out = DeviceBuffer<Real>::zeros(3 * nn_);
        product<false>(in.get(), nullptr, false, Real(0), out.get(), nullptr, SemPointWork{});
        const std::vector<Real> h = out.download();
        return std::vector<double>(h.begin(), h.end());
    }

    std::size_t device_bytes() const override {
        return u_.bytes() + up_.bytes() + un_.bytes() + f_.bytes() + f1_.bytes() + f2_.bytes() + owned_.bytes() +
               a_.bytes() + ih_.bytes() + mh_.bytes() + cells_.bytes() + cell_solid_.bytes() + element_words_.bytes() +
               ids_.bytes() + receivers_.bytes() + (pml_ ? pml_->device_bytes() : 0);
    }

    int cell_planes() const override { return cells_grid_.planes; }
    int cell_width() const override { return cells_grid_.width; }
    SemCudaSchedule schedule() const override { return schedule_; }

    const WaveProblem& p_;
    std::size_t nn_ = 0;
    int sms_ = device_sms();  // the device's multiprocessors
    std::array<std::size_t, 9> cell_begin_{};
    GridShape shape_{};
    SemCellGrid cells_grid_{};
    SemTables<Real> tab_{};
    DeviceBuffer<unsigned> cells_;                    // the sweep's cells by colour
    DeviceBuffer<unsigned long long> element_words_;  // the scatter's solid elements (ScatterElementWord)
    DeviceBuffer<unsigned char> ids_, cell_solid_;
    DeviceBuffer<Real> lambda_, mu_, a_, ih_, mh_, u_, up_, un_, f_;
    DeviceBuffer<Real> f1_, f2_;              // the fused scatter's other two force buffers
    DeviceBuffer<unsigned long long> owned_;  // the fused scatter's owned-point masks
    DeviceBuffer<unsigned long long> receivers_;
    DeviceBuffer<double> samples_;                 // the receivers' samples of a chunk (sample_slots)
    cuda::PinnedHostBuffer<double> host_samples_;  // their host copy
    std::vector<Real> host_a_, host_ih_;
    std::vector<SemSourceBatch> batches_;            // a step's sources with a force (kept: no allocation a step)
    std::vector<ScatterSourcePlace> source_places_;  // the scatter's place of each source (p_.sources order)
    UpdateFactors<Real> factors_{};
    Real beta_over_dt_ = 0;
    SemCudaSchedule schedule_ = SemCudaSchedule::Sweep;
    HaloExchange* exchange_ = nullptr;  // a subdomain's ghost exchange (null: one process)
    // The fused scatter's last node update of an advance, deferred: while pending, u_ and up_ hold
    // u^{m-1} and u^{m-2} of the state m the steps reached, force buffer `cur` the complete
    // K u^{m-1} - F(t_{m-1}), the one before it that of u^{m-2} (or zero), the third zero. The next advance continues
    // the chain (its first launch a fused one) and the receivers' samples form u^m where they are; whatever else reads
    // or sets the state settles it first. Why: a run's last update is a pass over every node (and a clear of a force
    // buffer) that only its last samples need, and each chunk of a long run paid it and a plain element launch again.
    struct FusedTail {
        bool pending = false;
        int cur = 0;
    };
    FusedTail tail_;
    std::unique_ptr<cuda::SemPmlCorrectionCuda<Real>> pml_;  // with a PML face
};

}  // namespace

struct SemCudaTimeStepper::Impl {
    std::unique_ptr<EngineBase> engine;
    std::string device;
};

SemCudaTimeStepper::SemCudaTimeStepper(const WaveProblem& problem, int device, int cell_planes,
                                       SemCudaSchedule schedule)
    : impl_(std::make_unique<Impl>()) {
    assert_run_rules(problem);
    if (problem.method != Method::Sem) throw std::logic_error("SemCudaTimeStepper: the problem is not a sem problem");
    const CudaDeviceInfo dev = cuda_device_for_run(device);
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    impl_->device = dev.name;
    // u, u-, u+, f (3 components each; two more f for the scatter), three update factors; the ids,
    // the cell list and flags (or the scatter's element words and owned-point masks).
    const std::size_t solid = std::size_t(std::count_if(problem.grid.ids.begin(), problem.grid.ids.end(),
                                                        [](unsigned char id) { return id != kVoidId; }));
    int sms = 0;
    VOXWAVE_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev.index));
    schedule = resolve_sem_cuda_schedule(schedule, problem.order, solid, sms);
    const bool scatter = schedule == SemCudaSchedule::Scatter;
    const std::size_t real = problem.precision == Precision::Fp64 ? 8 : 4;
    const std::size_t need =
        problem.node_count() * real * (scatter ? 21 : 15) + problem.grid.element_count() * (scatter ? 24 : 6);
    std::size_t free_bytes = 0, total = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (need > free_bytes)
        throw InputError("", "grid",
                         "the sem model needs " + std::to_string(need >> 20) + " MiB of GPU memory, the device has " +
                             std::to_string(free_bytes >> 20) + " MiB free");
    if (problem.precision == Precision::Fp64)
        impl_->engine = std::make_unique<Engine<double>>(problem, cell_planes, schedule);
    else
        impl_->engine = std::make_unique<Engine<float>>(problem, cell_planes, schedule);
}

SemCudaTimeStepper::~SemCudaTimeStepper() = default;
std::size_t SemCudaTimeStepper::node_count() const { return impl_->engine->node_count(); }
void SemCudaTimeStepper::set_state(const std::vector<double>& up, const std::vector<double>& u) {
    impl_->engine->set_state(up, u);
}
std::vector<double> SemCudaTimeStepper::displacement() const { return impl_->engine->download(false); }
std::vector<double> SemCudaTimeStepper::previous_displacement() const { return impl_->engine->download(true); }
std::vector<double> SemCudaTimeStepper::receiver_displacements() const { return impl_->engine->receiver_values(); }
void SemCudaTimeStepper::advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec,
                                 std::vector<double>* after) {
    impl_->engine->advance(n0, count, rec, after);
}
std::vector<double> SemCudaTimeStepper::stiffness_times(const std::vector<double>& v) const {
    return impl_->engine->stiffness_times(v);
}
void SemCudaTimeStepper::set_halo_exchange(HaloExchange* exchange) { impl_->engine->set_halo_exchange(exchange); }
CudaStepTiming SemCudaTimeStepper::time_steps(std::int64_t n0, std::int64_t steps) {
    // The steps and their last update (settled), as a run's state after them.
    Event a, b;
    impl_->engine->settle();
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    a.record();
    impl_->engine->advance(n0, steps, nullptr, nullptr);
    impl_->engine->settle();
    b.record();
    return {elapsed_seconds(a, b), steps};
}
std::size_t SemCudaTimeStepper::device_bytes() const { return impl_->engine->device_bytes(); }
std::string SemCudaTimeStepper::device_name() const { return impl_->device; }
int SemCudaTimeStepper::cell_planes() const { return impl_->engine->cell_planes(); }
int SemCudaTimeStepper::cell_width() const { return impl_->engine->cell_width(); }
SemCudaSchedule SemCudaTimeStepper::schedule() const { return impl_->engine->schedule(); }

void run_sem_cuda(const WaveProblem& p, const ProgressFn& progress, Result& r, int device, HaloExchange* exchange) {
    const auto t0 = std::chrono::steady_clock::now();
    auto stepper = std::make_unique<SemCudaTimeStepper>(p, device);
    stepper->set_halo_exchange(exchange);
    r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::size_t nr = p.receivers.size(), nt = std::size_t(p.steps);
    r.time.resize(nt);
    r.displacement.assign(nr * nt * 3, 0.0);
    r.velocity.assign(nr * nt * 3, 0.0);
    // u at the receivers for n = 0 .. steps (the last closes the last velocity); u^{-1} = 0.
    std::vector<double> samples((nt + 1) * nr * 3, 0.0), batch, last;
    // Chunks of sem_record_chunk steps: each ends with the copy of its samples to the host and a
    // synchronisation; the last chunk's copy brings u^N at the receivers too (the final state is
    // not formed elsewhere: SemCudaTimeStepper::advance).
    const std::int64_t chunk = sem_record_chunk(p.steps);
    for (std::int64_t n0 = 0; n0 < p.steps; n0 += chunk) {
        const std::int64_t count = std::min(chunk, p.steps - n0);
        const bool final_chunk = n0 + count == p.steps;
        stepper->advance(n0, count, &batch, final_chunk ? &last : nullptr);
        std::copy(batch.begin(), batch.end(), samples.begin() + std::size_t(n0) * nr * 3);
        if (final_chunk) std::copy(last.begin(), last.end(), samples.begin() + nt * nr * 3);
        if (progress && !progress(n0 + count, p.steps)) throw Cancelled{};
    }
    release_engine(r, [&] { stepper.reset(); });
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

}  // namespace voxwave
