// The spectral voxel elements on the GPU (sem_stepper_cuda.hpp states the design). The element
// arithmetic is sem_element_kernel.hpp's, one thread a GLL point: the element's damped operand w
// and then its weighted stresses go through shared memory between the two sum-factorised halves;
// the order of the sums at shared nodes is sem_colour_schedule.hpp's.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <string>

#include "core/cuda_check.cuh"
#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "wave/central_difference.hpp"
#include "wave/sem_colour_schedule.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_stepper_cuda.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

using cuda::DeviceBuffer;
using cuda::Event;

constexpr int kMaxN = kSemMaxOrder + 1;
constexpr int kMaxSources = 16;  // sources per launch of the point kernel (more: several launches)

template <class Real>
struct SemTables {
    Real d[kMaxN * kMaxN];
    Real w[kMaxN];
};

struct GridShape {
    int ex, ey, ez;         // elements along x, y, z
    long long nx, ny;       // GLL nodes along x, y
    unsigned long long nn;  // nodes
};

// The central-difference factors of sem_update's nodes (update_coefficients). Without a sponge
// h is one number, so the per-node factors stay unread (16 of the step's bytes a node in FP64).
template <class Real>
struct UpdateFactors {
    const Real* dt2_inv_mass;
    const Real* inv_one_plus_h;  // null: uniform_ih and uniform_mh at every node
    const Real* one_minus_h;
    Real uniform_ih, uniform_mh;
};

// One block an element of one colour (sem_colour_schedule.hpp), one thread a GLL point: w into
// shared memory, the point's weighted stress into shared memory, then the node's force. The
// element of the node's first colour writes the partial force into f, later ones add to it, and
// the element of its last colour completes it and (Update) writes u+ by central differences
// into u_next, or (!Update: the bare product K u) stores the complete force in f. u_prev is read
// for the update and, when damped, for the operand w = (1 + b) u - b u_prev; u_prev may be null
// for the bare product without damping.
template <int P, class Real, bool Update>
__global__ void __launch_bounds__((P + 1) * (P + 1) * (P + 1))
    sem_colour_step(const unsigned* __restrict elements, const unsigned char* __restrict ids,
                    const Real* __restrict lambda, const Real* __restrict mu, SemTables<Real> tab, GridShape g,
                    Real half_ds, const Real* __restrict u, const Real* __restrict u_prev, bool damped, Real keep,
                    Real b, Real* __restrict f, Real* __restrict u_next, UpdateFactors<Real> upd) {
    constexpr int N = P + 1, N3 = N * N * N;
    __shared__ Real su[3 * N3];
    __shared__ Real st[9 * N3];
    __shared__ Real sd[N * N], sw[N];
    const int q = threadIdx.x;
    const int a = q % N, bb = (q / N) % N, c = q / (N * N);
    if (q < N * N) sd[q] = tab.d[q];
    if (q < N) sw[q] = tab.w[q];
    const unsigned e = elements[blockIdx.x];
    const int ei = int(e % unsigned(g.ex)), ej = int((e / unsigned(g.ex)) % unsigned(g.ey)),
              ek = int(e / (unsigned(g.ex) * unsigned(g.ey)));
    const unsigned long long node =
        (unsigned long long)(P * ei + a) +
        (unsigned long long)g.nx * ((unsigned long long)(P * ej + bb) + (unsigned long long)g.ny * (P * ek + c));
    Real un[3];
    for (int i = 0; i < 3; ++i) {
        un[i] = u[i * g.nn + node];
        su[i * N3 + q] = damped ? damped_operand(un[i], u_prev[i * g.nn + node], keep, b) : un[i];
    }
    __syncthreads();
    const unsigned char id = ids[e];
    sem_point_stress<P, Real>(sd, sw, lambda[id], mu[id], half_ds, su, a, bb, c, st);
    __syncthreads();
    const int n[3] = {g.ex, g.ey, g.ez};
    const SemNodeRole role = sem_node_role(P, n, ei, ej, ek, a, bb, c, [&](int i, int j, int k) {
        return ids[std::size_t(i) + std::size_t(g.ex) * (std::size_t(j) + std::size_t(g.ey) * std::size_t(k))] !=
               kVoidId;
    });
    Real force[3];
    for (int i = 0; i < 3; ++i) {
        const Real own = sem_node_force<P, Real>(sd, st, i, a, bb, c);
        force[i] = role.first ? own : f[i * g.nn + node] + own;
    }
    if (!role.last || !Update) {
        for (int i = 0; i < 3; ++i) f[i * g.nn + node] = force[i];
        return;
    }
    const Real am = upd.dt2_inv_mass[node];
    const Real ih = upd.inv_one_plus_h ? upd.inv_one_plus_h[node] : upd.uniform_ih;
    const Real mh = upd.inv_one_plus_h ? upd.one_minus_h[node] : upd.uniform_mh;
    for (int i = 0; i < 3; ++i) {
        const unsigned long long k = i * g.nn + node;
        u_next[k] = central_difference_node(un[i], u_prev[k], am * force[i], mh, ih);
    }
}

struct SourceBatch {
    int count;
    unsigned long long node[kMaxSources];
    double force[kMaxSources][3];  // F(t_n) along each axis
};

template <class Real>
__global__ void sem_add_sources(SourceBatch s, unsigned long long nn, Real* __restrict u_next,
                                const Real* __restrict dt2_inv_mass, const Real* __restrict inv_one_plus_h) {
    const int i = threadIdx.x;
    if (i >= s.count) return;
    const unsigned long long n = s.node[i];
    const Real scale = dt2_inv_mass[n] * inv_one_plus_h[n];
    for (int c = 0; c < 3; ++c) u_next[c * nn + n] += scale * static_cast<Real>(s.force[i][c]);
}

template <class Real>
__global__ void sem_sample(const unsigned long long* __restrict nodes, int count, unsigned long long nn,
                           const Real* __restrict u, double* __restrict out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    for (int c = 0; c < 3; ++c) out[i * 3 + c] = double(u[c * nn + nodes[i]]);
}

struct EngineBase {
    virtual ~EngineBase() = default;
    virtual std::size_t node_count() const = 0;
    virtual void set_state(const std::vector<double>& up, const std::vector<double>& u) = 0;
    virtual std::vector<double> download(bool previous) const = 0;
    virtual void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) = 0;
    virtual std::vector<double> stiffness_times(const std::vector<double>& v) = 0;
    virtual std::size_t device_bytes() const = 0;
};

template <class Real>
struct Engine final : EngineBase {
    explicit Engine(const WaveProblem& p) : p_(p) {
        const SemMesh mesh = sem_mesh(p.grid, p.order);
        nn_ = mesh.node_count();
        shape_ = {p.grid.n[0], p.grid.n[1], p.grid.n[2], mesh.n[0], mesh.n[1], (unsigned long long)nn_};
        const int n1 = p.order + 1;
        for (int i = 0; i < n1 * n1; ++i) tab_.d[i] = static_cast<Real>(mesh.gll.d[i]);
        for (int i = 0; i < n1; ++i) tab_.w[i] = static_cast<Real>(mesh.gll.w[i]);
        if (p.grid.element_count() > 0xffffffffull)
            throw InputError("", "grid", "sem on CUDA takes at most 2^32 elements");
        // The solid elements sorted by colour, each colour's run in element order.
        std::vector<unsigned> elements;
        for (int colour = 0; colour < 8; ++colour) {
            colour_begin_[colour] = elements.size();
            for (int k = colour >> 2; k < p.grid.n[2]; k += 2)
                for (int j = (colour >> 1) & 1; j < p.grid.n[1]; j += 2)
                    for (int i = colour & 1; i < p.grid.n[0]; i += 2)
                        if (p.grid.at(i, j, k) != kVoidId) elements.push_back(unsigned(p.grid.element_index(i, j, k)));
        }
        colour_begin_[8] = elements.size();
        elements_ = DeviceBuffer<unsigned>(elements);
        ids_ = DeviceBuffer<unsigned char>(p.grid.ids);
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
    }

    std::size_t node_count() const override { return nn_; }

    void set_state(const std::vector<double>& up, const std::vector<double>& u) override {
        const auto held = [this](std::size_t n) { return host_a_[n] == Real(0); };
        const std::vector<Real> hu = stepper_state<Real>(u, 3, nn_, held), hp = stepper_state<Real>(up, 3, nn_, held);
        u_.upload(hu);
        up_.upload(hp);
    }

    std::vector<double> download(bool previous) const override {
        const std::vector<Real> h = (previous ? up_ : u_).download();
        return std::vector<double>(h.begin(), h.end());
    }

    // The eight colour launches of one step. Update: u_next = u+ (central differences on
    // K w, w = (1 + b) u - b u_prev when damped); otherwise f = K u (u_prev unused).
    template <bool Update>
    void colour_launches(const Real* u, const Real* up, bool damped, Real b, Real* f, Real* u_next) const {
        const Real half_ds = static_cast<Real>(0.5 * p_.grid.spacing), keep = Real(1) + b;
        for (int colour = 0; colour < 8; ++colour) {
            const std::size_t begin = colour_begin_[colour], count = colour_begin_[colour + 1] - begin;
            if (count == 0) continue;
            const unsigned* list = elements_.get() + begin;
            switch (p_.order) {
                case 2:
                    sem_colour_step<2, Real, Update><<<unsigned(count), 27>>>(list, ids_.get(), lambda_.get(),
                                                                              mu_.get(), tab_, shape_, half_ds, u, up,
                                                                              damped, keep, b, f, u_next, factors_);
                    break;
                case 3:
                    sem_colour_step<3, Real, Update><<<unsigned(count), 64>>>(list, ids_.get(), lambda_.get(),
                                                                              mu_.get(), tab_, shape_, half_ds, u, up,
                                                                              damped, keep, b, f, u_next, factors_);
                    break;
                default:
                    sem_colour_step<4, Real, Update><<<unsigned(count), 125>>>(list, ids_.get(), lambda_.get(),
                                                                               mu_.get(), tab_, shape_, half_ds, u, up,
                                                                               damped, keep, b, f, u_next, factors_);
            }
            VOXWAVE_CUDA_CHECK_LAUNCH("sem_colour_step");
        }
    }

    void step(std::int64_t n) {
        colour_launches<true>(u_.get(), up_.get(), beta_over_dt_ != Real(0), beta_over_dt_, f_.get(), un_.get());
        const double t = double(n) * p_.dt;
        SourceBatch batch{};
        auto flush = [&] {
            if (batch.count == 0) return;
            sem_add_sources<Real><<<1, kMaxSources>>>(batch, nn_, un_.get(), a_.get(), ih_.get());
            VOXWAVE_CUDA_CHECK_LAUNCH("sem_add_sources");
            batch.count = 0;
        };
        for (const auto& s : p_.sources) {
            const double wv = evaluate_wavelet(s.wavelet, t);
            if (wv == 0.0) continue;
            batch.node[batch.count] = s.node;
            for (int c = 0; c < 3; ++c) batch.force[batch.count][c] = s.force[c] * wv;
            if (++batch.count == kMaxSources) flush();
        }
        flush();
        // u- <- u, u <- u+, and the old u- is the next step's output (every node with mass is
        // written; massless nodes stay zero in all three buffers).
        up_.swap(un_);
        u_.swap(up_);
    }

    void advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) override {
        const int nr = int(p_.receivers.size());
        DeviceBuffer<double> samples;
        if (rec && nr > 0) samples = DeviceBuffer<double>::zeros(std::size_t(count) * nr * 3);
        for (std::int64_t k = 0; k < count; ++k) {
            if (rec && nr > 0) {
                sem_sample<Real><<<(nr + 63) / 64, 64>>>(receivers_.get(), nr, nn_, u_.get(),
                                                         samples.get() + std::size_t(k) * nr * 3);
                VOXWAVE_CUDA_CHECK_LAUNCH("sem_sample");
            }
            step(n0 + k);
        }
        if (rec) rec->assign(std::size_t(count) * std::size_t(nr) * 3, 0.0);
        if (rec && nr > 0) samples.download(rec->data(), rec->size());
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }

    std::vector<double> stiffness_times(const std::vector<double>& v) override {
        if (v.size() != 3 * nn_) throw RuntimeError("stiffness_times: wrong vector size");
        DeviceBuffer<Real> in(std::vector<Real>(v.begin(), v.end()));
        auto out = DeviceBuffer<Real>::zeros(3 * nn_);
        colour_launches<false>(in.get(), nullptr, false, Real(0), out.get(), nullptr);
        const std::vector<Real> h = out.download();
        return std::vector<double>(h.begin(), h.end());
    }

    std::size_t device_bytes() const override {
        return u_.bytes() + up_.bytes() + un_.bytes() + f_.bytes() + a_.bytes() + ih_.bytes() + mh_.bytes() +
               elements_.bytes() + ids_.bytes() + receivers_.bytes();
    }

    const WaveProblem& p_;
    std::size_t nn_ = 0, colour_begin_[9]{};
    GridShape shape_{};
    SemTables<Real> tab_{};
    DeviceBuffer<unsigned> elements_;
    DeviceBuffer<unsigned char> ids_;
    DeviceBuffer<Real> lambda_, mu_, a_, ih_, mh_, u_, up_, un_, f_;
    DeviceBuffer<unsigned long long> receivers_;
    std::vector<Real> host_a_, host_ih_;
    UpdateFactors<Real> factors_{};
    Real beta_over_dt_ = 0;
};

}  // namespace

struct SemCudaTimeStepper::Impl {
    std::unique_ptr<EngineBase> engine;
    std::string device;
};

SemCudaTimeStepper::SemCudaTimeStepper(const WaveProblem& problem, int device) : impl_(std::make_unique<Impl>()) {
    assert_run_rules(problem);
    if (problem.method != Method::Sem) throw std::logic_error("SemCudaTimeStepper: the problem is not a sem problem");
    const CudaDeviceInfo dev = cuda_device_for_run(device);
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    impl_->device = dev.name;
    // u, u-, u+, f (3 components each), three update factors, ids and the element list.
    const std::size_t real = problem.precision == Precision::Fp64 ? 8 : 4;
    const std::size_t need = problem.node_count() * real * 15 + problem.grid.element_count() * 5;
    std::size_t free_bytes = 0, total = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (need > free_bytes)
        throw InputError("", "grid",
                         "the sem model needs " + std::to_string(need >> 20) + " MiB of GPU memory, the device has " +
                             std::to_string(free_bytes >> 20) + " MiB free");
    if (problem.precision == Precision::Fp64)
        impl_->engine = std::make_unique<Engine<double>>(problem);
    else
        impl_->engine = std::make_unique<Engine<float>>(problem);
}

SemCudaTimeStepper::~SemCudaTimeStepper() = default;
std::size_t SemCudaTimeStepper::node_count() const { return impl_->engine->node_count(); }
void SemCudaTimeStepper::set_state(const std::vector<double>& up, const std::vector<double>& u) {
    impl_->engine->set_state(up, u);
}
std::vector<double> SemCudaTimeStepper::displacement() const { return impl_->engine->download(false); }
std::vector<double> SemCudaTimeStepper::previous_displacement() const { return impl_->engine->download(true); }
void SemCudaTimeStepper::advance(std::int64_t n0, std::int64_t count, std::vector<double>* rec) {
    impl_->engine->advance(n0, count, rec);
}
std::vector<double> SemCudaTimeStepper::stiffness_times(const std::vector<double>& v) const {
    return impl_->engine->stiffness_times(v);
}
CudaStepTiming SemCudaTimeStepper::time_steps(std::int64_t n0, std::int64_t steps) {
    Event a, b;
    VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    a.record();
    impl_->engine->advance(n0, steps, nullptr);
    b.record();
    return {elapsed_seconds(a, b), steps};
}
std::size_t SemCudaTimeStepper::device_bytes() const { return impl_->engine->device_bytes(); }
std::string SemCudaTimeStepper::device_name() const { return impl_->device; }

void run_sem_cuda(const WaveProblem& p, const ProgressFn& progress, Result& r, int device) {
    const auto t0 = std::chrono::steady_clock::now();
    SemCudaTimeStepper stepper(p, device);
    r.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const std::size_t nr = p.receivers.size(), nt = std::size_t(p.steps);
    r.time.resize(nt);
    r.displacement.assign(nr * nt * 3, 0.0);
    r.velocity.assign(nr * nt * 3, 0.0);
    // u at the receivers for n = 0 .. steps (the last closes the last velocity); u^{-1} = 0.
    std::vector<double> samples((nt + 1) * nr * 3, 0.0), batch;
    const std::int64_t chunk = std::max<std::int64_t>(64, p.steps / 100 + 1);
    for (std::int64_t n0 = 0; n0 < p.steps; n0 += chunk) {
        const std::int64_t count = std::min(chunk, p.steps - n0);
        stepper.advance(n0, count, &batch);
        std::copy(batch.begin(), batch.end(), samples.begin() + std::size_t(n0) * nr * 3);
        if (progress && !progress(n0 + count, p.steps)) throw Cancelled{};
    }
    const std::vector<double> last = stepper.displacement();
    const std::size_t nn = stepper.node_count();
    for (std::size_t i = 0; i < nr; ++i)
        for (int c = 0; c < 3; ++c) samples[(nt * nr + i) * 3 + c] = last[c * nn + p.receivers[i].node];
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
