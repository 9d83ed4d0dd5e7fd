// The plane-strain CUDA engine (plane_strain_stepper_cuda.hpp states the design).
#include <algorithm>
#include <stdexcept>

#include "core/device.hpp"
#include "core/device_buffer.cuh"
#include "core/errors.hpp"
#include "core/event_timer.cuh"
#include "wave/central_difference.hpp"
#include "wave/lame_tables.hpp"
#include "wave/plane_strain_element_kernel.hpp"
#include "wave/plane_strain_stepper_cuda.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kMaxSourcesPerLaunch = 32;

template <class Real>
struct Fields {
    const Real* u;
    const Real* up;
    Real* un;
};

template <class Real>
struct NodeTables {
    const MaterialId* ids;  // nx * ny
    const Real* lambda;     // per material id (256)
    const Real* mu;
    const Real* dt2_inv_mass;
    const Real* inv_one_plus_h;
    const Real* one_minus_h;
    int nx, ny;
    std::size_t nn;
    Real sc0, sc1, keep, b;
};

// One thread per node: the forces of its four squares at its corner, then its update.
template <class Real>
__global__ void plane_strain_step_kernel(Fields<Real> s, NodeTables<Real> t) {
    const int i = int(blockIdx.x) * kBlockX + int(threadIdx.x);
    const int j = int(blockIdx.y) * kBlockY + int(threadIdx.y);
    if (i > t.nx || j > t.ny) return;
    const std::size_t rs = std::size_t(t.nx) + 1;
    const std::size_t node = std::size_t(i) + rs * std::size_t(j);
    Real f0 = 0, f1 = 0;
    for (int dj = -1; dj <= 0; ++dj)
        for (int di = -1; di <= 0; ++di) {
            const int ei = i + di, ej = j + dj;
            if (ei < 0 || ej < 0 || ei >= t.nx || ej >= t.ny) continue;
            const MaterialId id = t.ids[std::size_t(ei) + std::size_t(t.nx) * std::size_t(ej)];
            if (id == kVoidId) continue;
            const std::size_t n0 = std::size_t(ei) + rs * std::size_t(ej);
            const std::size_t corner[4] = {n0, n0 + 1, n0 + rs + 1, n0 + rs};
            Real ue[8], fe[8];
            for (int l = 0; l < 4; ++l)
                for (int c = 0; c < 2; ++c) {
                    const std::size_t at = std::size_t(c) * t.nn + corner[l];
                    ue[2 * l + c] = t.b != Real(0) ? damped_operand(s.u[at], s.up[at], t.keep, t.b) : s.u[at];
                }
            plane_strain_element_force(ue, __ldg(t.lambda + id), __ldg(t.mu + id), t.sc0, t.sc1, fe);
            const int local = plane_local_node(-di, -dj);  // this node's corner of the square
            f0 += fe[2 * local];
            f1 += fe[2 * local + 1];
        }
    const Real a = t.dt2_inv_mass[node], mh = t.one_minus_h[node], ih = t.inv_one_plus_h[node];
    s.un[node] = central_difference_node(s.u[node], s.up[node], a * f0, mh, ih);
    s.un[t.nn + node] = central_difference_node(s.u[t.nn + node], s.up[t.nn + node], a * f1, mh, ih);
}

template <class Real>
struct SourceBatch {
    int count;
    std::size_t node[kMaxSourcesPerLaunch];
    Real force[kMaxSourcesPerLaunch][2];  // F(t_n) in the engine's precision
};

// u+ += dt^2/m F(t_n) / (1 + h); one thread, in order, as the CPU engine (sources may share a node).
template <class Real>
__global__ void plane_strain_sources_kernel(Real* un, SourceBatch<Real> batch, const Real* dt2_inv_mass,
                                            const Real* inv_one_plus_h, std::size_t nn) {
    for (int k = 0; k < batch.count; ++k) {
        const std::size_t n = batch.node[k];
        const Real scale = dt2_inv_mass[n] * inv_one_plus_h[n];
        un[n] += scale * batch.force[k][0];
        un[nn + n] += scale * batch.force[k][1];
    }
}

template <class Real>
__global__ void plane_strain_record_kernel(const Real* u, const std::size_t* nodes, int count, std::size_t nn,
                                           double* out) {
    const int r = int(blockIdx.x) * int(blockDim.x) + int(threadIdx.x);
    if (r >= count) return;
    out[2 * r] = double(u[nodes[r]]);
    out[2 * r + 1] = double(u[nn + nodes[r]]);
}

struct EngineBase {
    virtual ~EngineBase() = default;
    virtual void set_state(const std::vector<double>& up, const std::vector<double>& u) = 0;
    virtual std::vector<double> displacement() const = 0;
    virtual std::vector<double> previous_displacement() const = 0;
    virtual void step(std::int64_t n, double* record) = 0;
};

template <class Real>
class Engine final : public EngineBase {
public:
    explicit Engine(const WaveProblem& p) : p_(p) {
        const VoxelGrid& g = p.grid;
        nn_ = p.node_count();
        tables_.nx = g.n[0];
        tables_.ny = g.n[1];
        tables_.nn = nn_;
        const PlaneModeScales s = plane_strain_mode_scales(p.element_method());
        tables_.sc0 = Real(s.constant);
        tables_.sc1 = Real(s.linear);
        tables_.b = Real(p.rayleigh.beta / p.dt);
        tables_.keep = Real(1) + tables_.b;
        const LameTables<Real> lame = lame_tables<Real>(p.materials);
        ids_ = cuda::DeviceBuffer<MaterialId>(std::vector<MaterialId>(g.ids.begin(), g.ids.end()));
        lambda_ = cuda::DeviceBuffer<Real>(lame.lambda);
        mu_ = cuda::DeviceBuffer<Real>(lame.mu);
        UpdateCoefficients<Real> c = update_coefficients<Real>(p);
        dt2_inv_mass_ = cuda::DeviceBuffer<Real>(c.dt2_inv_mass);
        inv_one_plus_h_ = cuda::DeviceBuffer<Real>(c.inv_one_plus_h);
        one_minus_h_ = cuda::DeviceBuffer<Real>(c.one_minus_h);
        host_mass_zero_.resize(nn_);
        for (std::size_t n = 0; n < nn_; ++n) host_mass_zero_[n] = c.dt2_inv_mass[n] == Real(0);
        tables_.ids = ids_.get();
        tables_.lambda = lambda_.get();
        tables_.mu = mu_.get();
        tables_.dt2_inv_mass = dt2_inv_mass_.get();
        tables_.inv_one_plus_h = inv_one_plus_h_.get();
        tables_.one_minus_h = one_minus_h_.get();
        for (auto* b : {&u_, &up_, &un_}) b->resize(2 * nn_);
        std::vector<std::size_t> nodes;
        for (const auto& r : p.receivers) nodes.push_back(r.node);
        receiver_nodes_ = cuda::DeviceBuffer<std::size_t>(nodes);
    }

    void set_state(const std::vector<double>& up, const std::vector<double>& u) override {
        const auto held = [this](std::size_t n) { return bool(host_mass_zero_[n]); };
        const std::vector<Real> a = stepper_state<Real>(u, 2, nn_, held), b = stepper_state<Real>(up, 2, nn_, held);
        u_.upload(a);
        up_.upload(b);
    }

    std::vector<double> displacement() const override {
        const std::vector<Real> u = u_.download();
        return {u.begin(), u.end()};
    }
    std::vector<double> previous_displacement() const override {
        const std::vector<Real> u = up_.download();
        return {u.begin(), u.end()};
    }

    void step(std::int64_t n, double* record) override {
        const dim3 block(kBlockX, kBlockY);
        const dim3 grid(unsigned((tables_.nx + 1 + kBlockX - 1) / kBlockX),
                        unsigned((tables_.ny + 1 + kBlockY - 1) / kBlockY));
        plane_strain_step_kernel<Real><<<grid, block>>>(Fields<Real>{u_.get(), up_.get(), un_.get()}, tables_);
        VOXWAVE_CUDA_CHECK_LAUNCH("plane_strain_step_kernel");
        add_sources(n);
        // Rotate: u- <- u, u <- u+.
        up_.swap(u_);
        u_.swap(un_);
        if (record && !p_.receivers.empty()) {
            const int count = int(p_.receivers.size());
            plane_strain_record_kernel<Real>
                <<<unsigned((count + 127) / 128), 128>>>(u_.get(), receiver_nodes_.get(), count, nn_, record);
            VOXWAVE_CUDA_CHECK_LAUNCH("plane_strain_record_kernel");
        }
    }

private:
    void add_sources(std::int64_t n) {
        const double t = double(n) * p_.dt;
        SourceBatch<Real> batch{};
        auto flush = [&] {
            if (batch.count == 0) return;
            plane_strain_sources_kernel<Real>
                <<<1, 1>>>(un_.get(), batch, dt2_inv_mass_.get(), inv_one_plus_h_.get(), nn_);
            VOXWAVE_CUDA_CHECK_LAUNCH("plane_strain_sources_kernel");
            batch.count = 0;
        };
        for (const auto& s : p_.sources) {
            const double w = evaluate_wavelet(s.wavelet, t);
            if (w == 0.0) continue;
            batch.node[batch.count] = s.node;
            batch.force[batch.count][0] = static_cast<Real>(s.force[0] * w);
            batch.force[batch.count][1] = static_cast<Real>(s.force[1] * w);
            if (++batch.count == kMaxSourcesPerLaunch) flush();
        }
        flush();
    }

    const WaveProblem& p_;
    std::size_t nn_ = 0;
    NodeTables<Real> tables_{};
    cuda::DeviceBuffer<MaterialId> ids_;
    cuda::DeviceBuffer<Real> lambda_, mu_, dt2_inv_mass_, inv_one_plus_h_, one_minus_h_;
    cuda::DeviceBuffer<Real> u_, up_, un_;
    cuda::DeviceBuffer<std::size_t> receiver_nodes_;
    std::vector<bool> host_mass_zero_;
};

}  // namespace

struct PlaneStrainStepperCuda::Impl {
    std::string device;
    std::size_t nn = 0, receivers = 0;
    std::unique_ptr<EngineBase> engine;
    cuda::DeviceBuffer<double> records;
};

PlaneStrainStepperCuda::PlaneStrainStepperCuda(const WaveProblem& problem, int device)
    : impl_(std::make_unique<Impl>()) {
    assert_run_rules(problem);
    if (problem.dimensions != 2 || problem.grid.n[2] != 1)
        throw std::logic_error("PlaneStrainStepperCuda: the problem is not a plane-strain (2D) one");
    if (problem.method == Method::Tcovfem)
        throw std::logic_error("PlaneStrainStepperCuda: tcovfem has no 2D engine (the scene skipped validate_scene)");
    const CudaDeviceInfo dev = cuda_device_for_run(device);
    VOXWAVE_CUDA_CHECK(cudaSetDevice(dev.index));
    impl_->device = dev.name;
    impl_->nn = problem.node_count();
    impl_->receivers = problem.receivers.size();
    if (problem.precision == Precision::Fp64)
        impl_->engine = std::make_unique<Engine<double>>(problem);
    else
        impl_->engine = std::make_unique<Engine<float>>(problem);
}

PlaneStrainStepperCuda::~PlaneStrainStepperCuda() = default;
std::size_t PlaneStrainStepperCuda::node_count() const { return impl_->nn; }
std::string PlaneStrainStepperCuda::device_name() const { return impl_->device; }

void PlaneStrainStepperCuda::set_state(const std::vector<double>& u_prev, const std::vector<double>& u) {
    impl_->engine->set_state(u_prev, u);
}

std::vector<double> PlaneStrainStepperCuda::displacement() const { return impl_->engine->displacement(); }
std::vector<double> PlaneStrainStepperCuda::previous_displacement() const {
    return impl_->engine->previous_displacement();
}

void PlaneStrainStepperCuda::advance(std::int64_t first, std::int64_t count, std::vector<double>* receivers) {
    const std::size_t per_step = 2 * impl_->receivers;
    const bool record = receivers && per_step > 0;
    if (record && impl_->records.size() < per_step * std::size_t(count))
        impl_->records = cuda::DeviceBuffer<double>(per_step * std::size_t(count));
    for (std::int64_t k = 0; k < count; ++k)
        impl_->engine->step(first + k, record ? impl_->records.get() + per_step * std::size_t(k) : nullptr);
    if (record) {
        const std::size_t old = receivers->size();
        receivers->resize(old + per_step * std::size_t(count));
        impl_->records.download(receivers->data() + old, per_step * std::size_t(count));
    } else {
        VOXWAVE_CUDA_CHECK(cudaDeviceSynchronize());
    }
}

double PlaneStrainStepperCuda::median_step_seconds(int repeats) {
    for (int k = 0; k < 3; ++k) impl_->engine->step(k, nullptr);  // warm-up
    std::vector<double> seconds;
    for (int k = 0; k < std::max(1, repeats); ++k) {
        cuda::EventTimer timer;
        timer.start();
        impl_->engine->step(3 + k, nullptr);
        timer.stop();
        seconds.push_back(timer.seconds());
    }
    std::nth_element(seconds.begin(), seconds.begin() + std::ptrdiff_t(seconds.size() / 2), seconds.end());
    return seconds[seconds.size() / 2];
}

void run_plane_strain_cuda(const WaveProblem& p, const ProgressFn& progress, Result& r, int device) {
    PlaneStrainStepperCuda stepper(p, device);
    const std::size_t nr = p.receivers.size(), nt = std::size_t(p.steps);
    r.components = 2;
    r.time.resize(nt);
    r.displacement.assign(nr * nt * 2, 0.0);
    r.velocity.assign(nr * nt * 2, 0.0);
    // samples[k] = u at t_k (k = 0 .. steps), receiver-major within a sample; the state starts at rest.
    std::vector<double> samples(nr * 2, 0.0);
    const std::int64_t batch = std::max<std::int64_t>(1, std::min<std::int64_t>(p.steps / 200 + 1, 2000));
    for (std::int64_t n = 0; n < p.steps; n += batch) {
        const std::int64_t count = std::min(batch, p.steps - n);
        stepper.advance(n, count, &samples);
        if (progress && !progress(n + count, p.steps)) throw Cancelled{};
    }
    auto at = [&](std::int64_t k, std::size_t i, int c) {
        return k < 0 ? 0.0 : samples[(std::size_t(k) * nr + i) * 2 + c];
    };
    for (std::size_t t = 0; t < nt; ++t) {
        r.time[t] = double(t) * p.dt;
        for (std::size_t i = 0; i < nr; ++i)
            for (int c = 0; c < 2; ++c) {
                r.displacement[(i * nt + t) * 2 + c] = at(std::int64_t(t), i, c);
                r.velocity[(i * nt + t) * 2 + c] =
                    (at(std::int64_t(t) + 1, i, c) - at(std::int64_t(t) - 1, i, c)) / (2.0 * p.dt);
            }
    }
}

}  // namespace voxwave
