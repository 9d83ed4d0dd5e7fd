// The spectral elements' PML on CUDA (sem_pml_correction_cuda.cuh states the design): the host
// side, whose kernels are sem_pml_kernel.cuh's.
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.cuh"
#include "core/errors.hpp"
#include "wave/pml_nodes_cpu.hpp"
#include "wave/sem_mesh.hpp"
#include "wave/sem_pml_correction_cuda.cuh"

namespace voxwave::cuda {
namespace {

using namespace sem_cuda;

template <class T>
void upload_to(DeviceBuffer<T>& b, const std::vector<T>& v) {
    b.resize(v.size());
    b.upload(v);
}

std::vector<unsigned long long> as_ull(const std::vector<std::size_t>& v) {
    return std::vector<unsigned long long>(v.begin(), v.end());
}

// y = c0 u, y- = c0 u- at every layer node.
template <class Real>
__global__ void __launch_bounds__(kPmlNodeThreads)
    sem_pml_reset_nodes(unsigned long long count, const unsigned long long* __restrict node,
                        const double* __restrict scale, unsigned long long nn, const Real* __restrict u,
                        const Real* __restrict u_prev, double* __restrict y, double* __restrict y_prev) {
    const std::size_t q = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    if (q >= count) return;
    const std::size_t n = std::size_t(node[q]);
    for (int c = 0; c < 3; ++c) {
        y[3 * q + std::size_t(c)] = scale[q] * double(u[std::size_t(c) * nn + n]);
        y_prev[3 * q + std::size_t(c)] = scale[q] * double(u_prev[std::size_t(c) * nn + n]);
    }
}

unsigned blocks_of(std::size_t n, std::size_t per_block) { return unsigned((n + per_block - 1) / per_block); }

}  // namespace

template <class Real>
SemPmlCorrectionCuda<Real>::SemPmlCorrectionCuda(const WaveProblem& problem) : problem_(problem) {
    const SemMesh mesh = sem_mesh(problem.grid, problem.order);
    const PmlTables t = pml_tables(problem.boundary.pml, problem.grid, problem.node_mass, problem.dt, problem.order);
    elements_ = t.element.size();
    nodes_ = t.node.size();
    nn_ = mesh.node_count();
    node_n_[0] = mesh.n[0];
    node_n_[1] = mesh.n[1];
    sem_pml_check_poles(t);
    const std::size_t n1 = std::size_t(problem.order + 1), values = kSemPmlPointValues * n1 * n1 * n1;
    // The previous gradients only with Rayleigh's beta (the operand is then not u: without it they
    // are u-'s, recomputed each step).
    const std::size_t prev_elements = problem.rayleigh.beta != 0 ? elements_ : 0;
    // What the layer holds: the memory variables, the tables and the indices (as device_bytes).
    const std::size_t need = (t.element_poles.size() + prev_elements) * values * sizeof(double) + t.bytes() +
                             nodes_ * (1 + 6) * sizeof(double) + t.node_poles.size() * 3 * sizeof(double);
    std::size_t free_bytes = 0, total = 0;
    VOXWAVE_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (need > free_bytes)
        throw InputError("", "grid",
                         "the sem PML needs " + std::to_string(need >> 20) + " MiB of GPU memory beside the model, " +
                             "the device has " + std::to_string(free_bytes >> 20) + " MiB free");
    std::vector<double> lambda(256, 0.0), mu(256, 0.0);
    for (std::size_t i = 0; i < problem.materials.size() && i < 255; ++i) {
        lambda[i + 1] = problem.materials[i].lame_lambda();
        mu[i + 1] = problem.materials[i].shear_modulus();
    }
    upload_to(lambda_, lambda);
    upload_to(mu_, mu);
    std::vector<unsigned char> ids(elements_);
    for (std::size_t q = 0; q < elements_; ++q) ids[q] = problem.grid.ids[t.element[q]];
    upload_to(ids_, ids);
    upload_to(element_, as_ull(t.element));
    upload_to(element_first_pole_, as_ull(t.element_first_pole));
    if (elements_ > std::size_t(UINT32_MAX))
        throw InputError("", "grid", "the sem PML has more than 2^32 layer elements");
    const std::vector<std::vector<std::uint32_t>> by_poles = sem_pml_elements_by_poles(t.element_first_pole);
    for (std::size_t k = 0; k < by_poles.size(); ++k) upload_to(by_poles_[k], by_poles[k]);
    std::vector<std::uint32_t> live(elements_);
    for (std::size_t q = 0; q < elements_; ++q) live[q] = sem_pml_live_stages(t, q);
    upload_to(live_, live);
    upload_to(element_decay_, t.element_poles.decay);
    upload_to(element_w_old_, t.element_poles.w_old);
    upload_to(element_w_new_, t.element_poles.w_new);
    upload_to(filter_const_, t.filter_const);
    upload_to(filter_newton_, t.filter_newton);
    upload_to(node_, as_ull(t.node));
    upload_to(node_first_pole_, as_ull(t.node_first_pole));
    upload_to(node_decay_, t.node_poles.decay);
    upload_to(node_w_old_, t.node_poles.w_old);
    upload_to(node_w_new_, t.node_poles.w_new);
    upload_to(node_scale_, t.node_scale);
    upload_to(node_newton_, t.node_newton);
    upload_to(node_a_, pml_node_dt2_inv_mass(t, problem));
    const double h = 0.5 * problem.dt * problem.rayleigh.alpha;
    one_minus_h_ = 1.0 - h;
    inv_one_plus_h_ = 1.0 / (1.0 + h);
    psi_.resize(t.element_poles.size() * values);  // resize zeroes
    prev_.resize(prev_elements * values);
    node_psi_.resize(t.node_poles.size() * 3);
    y_.resize(3 * nodes_);
    y_prev_.resize(3 * nodes_);
}

template <class Real>
void SemPmlCorrectionCuda<Real>::reset(const Real* u_prev, const Real* u) {
    for (DeviceBuffer<double>* b : {&psi_, &prev_, &node_psi_})
        if (b->size()) VOXWAVE_CUDA_CHECK(cudaMemset(b->get(), 0, b->bytes()));
    fresh_ = true;
    if (nodes_ == 0) return;
    sem_pml_reset_nodes<Real><<<blocks_of(nodes_, kPmlNodeThreads), kPmlNodeThreads>>>(
        nodes_, node_.get(), node_scale_.get(), nn_, u, u_prev, y_.get(), y_prev_.get());
    VOXWAVE_CUDA_CHECK_LAUNCH("sem_pml_reset_nodes");
}

template <class Real>
template <int P>
void SemPmlCorrectionCuda<Real>::element_pass(const Real* u, const Real* u_prev, Real b, Real* u_next,
                                              const SemPmlUpdate<Real>& upd) {
    SemPmlElementArgs<Real> a{};
    a.element = element_.get();
    a.first_pole = element_first_pole_.get();
    a.live = live_.get();
    a.ids = ids_.get();
    a.lambda = lambda_.get();
    a.mu = mu_.get();
    a.decay = element_decay_.get();
    a.w_old = element_w_old_.get();
    a.w_new = element_w_new_.get();
    a.filter_const = filter_const_.get();
    a.filter_newton = filter_newton_.get();
    a.psi = psi_.get();
    a.prev = prev_.size() ? prev_.get() : nullptr;
    a.fresh = fresh_;
    a.ex = problem_.grid.n[0];
    a.ey = problem_.grid.n[1];
    a.nx = node_n_[0];
    a.ny = node_n_[1];
    a.nn = nn_;
    const GllTables gll = gll_tables(P);
    for (int i = 0; i < (P + 1) * (P + 1); ++i) a.d[i] = gll.d[i];
    for (int i = 0; i <= P; ++i) a.w[i] = gll.w[i];
    a.half_ds = 0.5 * problem_.grid.spacing;
    a.u = u;
    a.u_prev = u_prev;
    // As the CPU pass: w = (1 + b) u - b u- in FP64 from the engine's b.
    a.b = double(b);
    a.keep = 1.0 + a.b;
    a.damped = u_prev != nullptr && b != Real(0);
    if ((a.damped && !a.prev) || (!a.prev && !a.fresh && u_prev == nullptr))
        throw std::logic_error("SemPmlCorrectionCuda: an operand with beta, or no u-, in a layer built without beta");
    a.u_next = u_next;
    a.upd = upd;
    constexpr int per_block = kPmlElementsPerBlock<P>, threads = kPmlElementThreads<P>;
    for (int k = 0; k < kSemPmlPoleClasses; ++k) {
        const DeviceBuffer<std::uint32_t>& list = by_poles_[std::size_t(k)];
        if (list.size() == 0) continue;
        a.list = list.get();
        a.count = list.size();
        sem_pml_with_pole_class(k, [&](auto poles) {
            sem_pml_element_pass<P, decltype(poles)::value, Real><<<blocks_of(list.size(), per_block), threads>>>(a);
        });
        VOXWAVE_CUDA_CHECK_LAUNCH("sem_pml_element_pass");
    }
}

template <class Real>
void SemPmlCorrectionCuda<Real>::correct(const Real* u, const Real* u_prev, Real b, Real* u_next,
                                         const SemPmlUpdate<Real>& upd) {
    if (elements_ > 0) {
        switch (problem_.order) {
            case 2:
                element_pass<2>(u, u_prev, b, u_next, upd);
                break;
            case 3:
                element_pass<3>(u, u_prev, b, u_next, upd);
                break;
            default:
                element_pass<4>(u, u_prev, b, u_next, upd);
        }
        fresh_ = false;
    }
    if (nodes_ == 0) return;
    SemPmlNodeArgs<Real> a{};
    fill_pml_node_poles(a, *this);
    a.count = nodes_;
    a.first_pole = node_first_pole_.get();
    a.nn = nn_;
    a.u = u;
    a.u_prev = u_prev;
    a.u_next = u_next;
    a.upd = upd;
    sem_pml_node_pass<Real><<<blocks_of(nodes_, kPmlNodeThreads), kPmlNodeThreads>>>(a);
    VOXWAVE_CUDA_CHECK_LAUNCH("sem_pml_node_pass");
}

template <class Real>
std::size_t SemPmlCorrectionCuda<Real>::device_bytes() const {
    std::size_t bytes = ids_.bytes() + live_.bytes();
    for (const DeviceBuffer<std::uint32_t>& b : by_poles_) bytes += b.bytes();
    for (const DeviceBuffer<unsigned long long>* b : {&element_, &element_first_pole_, &node_, &node_first_pole_})
        bytes += b->bytes();
    for (const DeviceBuffer<double>* b :
         {&lambda_, &mu_, &element_decay_, &element_w_old_, &element_w_new_, &filter_const_, &filter_newton_,
          &node_decay_, &node_w_old_, &node_w_new_, &node_scale_, &node_newton_, &node_a_, &psi_, &prev_, &node_psi_,
          &y_, &y_prev_})
        bytes += b->bytes();
    return bytes;
}

template class SemPmlCorrectionCuda<double>;
template class SemPmlCorrectionCuda<float>;

}  // namespace voxwave::cuda
