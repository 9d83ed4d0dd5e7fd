// The batched CPU stepper (batched_shots.hpp): B members of one model, batch innermost, each
// element's forces computed for W members at once with the element kernel instantiated on a GCC
// vector of W lanes (the same operations per lane as the scalar kernel).
//
// The 64-byte vectors never cross a non-inlined call boundary of another translation unit (see
// voxel_stiffness_cpu.cpp): the ABI warning does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

#include <omp.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "core/errors.hpp"
#include "core/float_env.hpp"
#include "wave/batched_shots.hpp"
#include "wave/central_difference.hpp"
#include "wave/lame_tables.hpp"
#include "wave/tcovfem_int8.hpp"
#include "wave/update_coefficients.hpp"
#include "wave/voxel_element_kernel.hpp"
#include "wave/wavelet.hpp"

namespace voxwave {
namespace {

template <class Real>
class BatchedCpuStepper {
public:
    static constexpr std::size_t W = 64 / sizeof(Real);  // members per vector (one 64-byte register)
    typedef Real V __attribute__((vector_size(64)));

    BatchedCpuStepper(const WaveProblem& p, const std::vector<const ShotSources*>& group)
        : p_(p),
          group_(group),
          nn_(p.grid.node_count()),
          bp_((group.size() + W - 1) / W * W),
          beta_over_dt_(static_cast<Real>(p.rayleigh.beta / p.dt)),
          uniform_h_(!p.boundary.has_node_damping()) {
        UpdateCoefficients<Real> c = update_coefficients<Real>(p);
        a_ = std::move(c.dt2_inv_mass);
        ih_ = std::move(c.inv_one_plus_h);
        mh_ = std::move(c.one_minus_h);
        const LameTables<Real> lame = lame_tables<Real>(p.materials);
        std::copy(lame.lambda.begin(), lame.lambda.end(), lambda_.begin());
        std::copy(lame.mu.begin(), lame.mu.end(), mu_.begin());
        const ModeScales sc = mode_scales(p.element_method(), p.grid.spacing);
        s0_ = static_cast<Real>(sc.constant);
        s1_ = static_cast<Real>(sc.linear);
        s2_ = static_cast<Real>(sc.bilinear);
        for (auto* v : {&u_, &up_, &f_}) v->assign(3 * nn_ * bp_, Real(0));
        if (p.method == Method::Tcovfem) {
            if constexpr (!std::is_same_v<Real, double>) throw std::logic_error("tcovfem runs in FP64 only");
            tc_matrix_ = build_tcovfem_int8_matrix();
            tc_factors_ = tcovfem_material_factors(p.materials, p.grid.spacing);
            tc_diagonal_ = tcovfem_node_diagonal(p.grid, tc_factors_);
        }
    }

    std::size_t index(std::size_t node, int c, std::size_t member) const {
        return (node * 3 + std::size_t(c)) * bp_ + member;
    }
    double displacement_at(std::size_t m, std::size_t node, int c) const { return double(u_[index(node, c, m)]); }
    double previous_at(std::size_t m, std::size_t node, int c) const { return double(up_[index(node, c, m)]); }

    void step(std::int64_t n) {
        const bool damped = beta_over_dt_ != Real(0);
        if constexpr (std::is_same_v<Real, double>) {
            if (!tc_diagonal_.empty()) {
                if (damped)
                    tcovfem_element_forces<true>();
                else
                    tcovfem_element_forces<false>();
                update();
                add_sources(n);
                u_.swap(up_);
                return;
            }
        }
        if (damped)
            sweep<true>();
        else
            sweep<false>();
        add_sources(n);
        u_.swap(up_);
    }

private:
    static V load(const Real* p) {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static void store(Real* p, const V& v) { std::memcpy(p, &v, sizeof v); }

    // f += K w of element plane k for every member, W members a vector. Along an element row the
    // +x face of element i is the -x face of element i + 1: its w is loaded once and its forces
    // are summed in registers (one read-modify-write per node and component, not two).
    template <bool Damped>
    void element_plane(int k, const V& v0, const V& v1, const V& v2) {
        const VoxelGrid& g = p_.grid;
        const int nx = g.n[0], ny = g.n[1];
        const std::size_t chunks = bp_ / W, node_stride = 3 * bp_;
        const Real b = beta_over_dt_, keep = Real(1) + b;
        const Real* __restrict u = u_.data();
        const Real* __restrict up = up_.data();
        Real* __restrict f = f_.data();
        // The 4 corners of a face (bb, c) in local order, and their first dof.
        auto corner = [](int a, int face) { return 3 * voxel_local_node(a, face & 1, face >> 1); };
        for (int j = 0; j < ny; ++j) {
            std::size_t row[4];  // node (0, j + bb, k + c) times the node stride, face = 2 c + bb
            for (int face = 0; face < 4; ++face)
                row[face] = g.node_index(0, j + (face & 1), k + (face >> 1)) * node_stride;
            const MaterialId* ids = g.ids.data() + g.element_index(0, j, k);
            for (std::size_t q = 0; q < chunks; ++q) {
                const std::size_t lane = q * W;
                V w_face[12], f_face[12];  // the previous element's +x face: w, and its forces not yet added
                bool have_w = false, have_f = false;
                auto flush = [&](int i) {  // add the carried forces to the nodes of column i
                    for (int face = 0; face < 4; ++face)
                        for (int comp = 0; comp < 3; ++comp) {
                            Real* dst = f + row[face] + std::size_t(i) * node_stride + std::size_t(comp) * bp_ + lane;
                            store(dst, load(dst) + f_face[3 * face + comp]);
                        }
                    have_f = false;
                };
                for (int i = 0; i < nx; ++i) {
                    const MaterialId id = ids[i];
                    if (id == 0) {  // void: no element; what the previous element carried goes now
                        if (have_f) flush(i);
                        have_w = false;
                        continue;
                    }
                    V ue[24], fe[24];
                    for (int a = 0; a < 2; ++a)
                        for (int face = 0; face < 4; ++face)
                            for (int comp = 0; comp < 3; ++comp) {
                                V& w = ue[corner(a, face) + comp];
                                if (a == 0 && have_w) {
                                    w = w_face[3 * face + comp];
                                    continue;
                                }
                                const std::size_t at =
                                    row[face] + std::size_t(i + a) * node_stride + std::size_t(comp) * bp_ + lane;
                                if constexpr (Damped)
                                    w = keep * load(u + at) - b * load(up + at);
                                else
                                    w = load(u + at);
                                if (a == 1) w_face[3 * face + comp] = w;
                            }
                    have_w = true;
                    voxel_element_force<V>(ue, V{} + lambda_[id], V{} + mu_[id], v0, v1, v2, fe);
                    for (int face = 0; face < 4; ++face)
                        for (int comp = 0; comp < 3; ++comp) {
                            const V near = fe[corner(0, face) + comp];
                            Real* dst = f + row[face] + std::size_t(i) * node_stride + std::size_t(comp) * bp_ + lane;
                            store(dst, load(dst) + (have_f ? f_face[3 * face + comp] + near : near));
                            f_face[3 * face + comp] = fe[corner(1, face) + comp];
                        }
                    have_f = true;
                }
                if (have_f) flush(nx);
            }
        }
    }

    // One step of VFEM / OVFEM without sources. Element planes go in fixed chunks of
    // kPlanesPerChunk swept in order by one thread, and a node plane inside a chunk is updated as
    // soon as its two element planes are done (its f still in cache; its u- is read by no other
    // chunk). Even chunks run, then odd ones, so neighbouring chunks never add into their shared
    // node plane at once; the shared planes are updated last. The chunks and the order of the
    // additions do not depend on the thread count.
    template <bool Damped>
    void sweep() {
        constexpr int kPlanesPerChunk = 8;
        const int nz = p_.grid.n[2];
        const int chunks = std::max(1, nz / kPlanesPerChunk);
        auto chunk_end = [&](int c) { return c + 1 == chunks ? nz : (c + 1) * kPlanesPerChunk; };
#pragma omp parallel
        {
            const FlushDenormalsScope no_subnormals;
            const V v0 = V{} + s0_, v1 = V{} + s1_, v2 = V{} + s2_;
            for (int phase = 0; phase < 2; ++phase) {
#pragma omp for schedule(dynamic, 1)
                for (int c = phase; c < chunks; c += 2)
                    for (int k = c * kPlanesPerChunk; k < chunk_end(c); ++k) {
                        element_plane<Damped>(k, v0, v1, v2);
                        if (k > c * kPlanesPerChunk) update_plane(k);
                    }
            }
#pragma omp for schedule(static)
            for (int c = 0; c <= chunks; ++c) update_plane(c == chunks ? nz : c * kPlanesPerChunk);
        }
    }

    // TCOVFEM (FP64): each member's element product through the INT8 digits
    // (tcovfem_element_force_int, the CPU oracle of the Tensor Core kernel) with the element's A and
    // material factors loaded once for the batch, then the FP64 diagonal D_n w_n per node.
    template <bool Damped>
    void tcovfem_element_forces() {
        const VoxelGrid& g = p_.grid;
        const int nx = g.n[0], ny = g.n[1], nz = g.n[2];
        const std::size_t members = group_.size();
        const double b = beta_over_dt_, keep = 1.0 + b;
        const double* __restrict u = u_.data();
        const double* __restrict up = up_.data();
        double* __restrict f = f_.data();
        for (int parity = 0; parity < 2; ++parity) {
#pragma omp parallel
            {
                const FlushDenormalsScope no_subnormals;
#pragma omp for schedule(dynamic, 1)
                for (int k = parity; k < nz; k += 2)
                    for (int j = 0; j < ny; ++j)
                        for (int i = 0; i < nx; ++i) {
                            const MaterialId id = g.ids[g.element_index(i, j, k)];
                            if (id == 0) continue;
                            std::size_t base[8];
                            for (int c = 0; c < 2; ++c)
                                for (int bb = 0; bb < 2; ++bb)
                                    for (int a = 0; a < 2; ++a)
                                        base[voxel_local_node(a, bb, c)] = g.node_index(i + a, j + bb, k + c) * 3 * bp_;
                            for (std::size_t m = 0; m < members; ++m) {
                                double we[24], fe[24];
                                for (int l = 0; l < 8; ++l)
                                    for (int comp = 0; comp < 3; ++comp) {
                                        const std::size_t at = base[l] + std::size_t(comp) * bp_ + m;
                                        we[3 * l + comp] = Damped ? damped_operand(u[at], up[at], keep, b) : u[at];
                                    }
                                tcovfem_element_force_int(tc_matrix_, we, tc_factors_[id], p_.stages, fe);
                                for (int l = 0; l < 8; ++l)
                                    for (int comp = 0; comp < 3; ++comp)
                                        f[base[l] + std::size_t(comp) * bp_ + m] += fe[3 * l + comp];
                            }
                        }
            }
        }
        const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
        const std::size_t row = 3 * bp_;
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t n = 0; n < nn; ++n) {
            const double d = tc_diagonal_[std::size_t(n)];
            const std::size_t o = std::size_t(n) * row;
            for (std::size_t i = 0; i < row; ++i)
                f[o + i] += d * (Damped ? damped_operand(u[o + i], up[o + i], keep, b) : u[o + i]);
        }
    }

    // Node plane kk: up = u+ from u, u-, f (central_difference_node, as the single stepper), f = 0.
    void update_plane(int kk) {
        const VoxelGrid& g = p_.grid;
        const std::size_t n0 = g.node_index(0, 0, kk), n1 = n0 + std::size_t(g.n[0] + 1) * std::size_t(g.n[1] + 1);
        const std::size_t row = 3 * bp_;
        for (std::size_t n = n0; n < n1; ++n) {
            const Real a = a_[n];
            const Real ih = ih_[uniform_h_ ? 0 : n], mh = mh_[uniform_h_ ? 0 : n];
            const Real* __restrict u = u_.data() + n * row;
            Real* __restrict up = up_.data() + n * row;
            Real* __restrict f = f_.data() + n * row;
#pragma omp simd
            for (std::size_t i = 0; i < row; ++i) {
                up[i] = central_difference_node(u[i], up[i], a * f[i], mh, ih);
                f[i] = Real(0);
            }
        }
    }

    // up = u+ from u, u-, f (central_difference_node, as the single stepper), and f = 0 again.
    void update() {
        const std::ptrdiff_t nn = static_cast<std::ptrdiff_t>(nn_);
        const std::size_t row = 3 * bp_;
#pragma omp parallel
        {
            const FlushDenormalsScope no_subnormals;
#pragma omp for schedule(static)
            for (std::ptrdiff_t n = 0; n < nn; ++n) {
                const Real a = a_[std::size_t(n)];
                const Real ih = ih_[uniform_h_ ? 0 : std::size_t(n)], mh = mh_[uniform_h_ ? 0 : std::size_t(n)];
                const Real* __restrict u = u_.data() + std::size_t(n) * row;
                Real* __restrict up = up_.data() + std::size_t(n) * row;
                Real* __restrict f = f_.data() + std::size_t(n) * row;
#pragma omp simd
                for (std::size_t i = 0; i < row; ++i) {
                    up[i] = central_difference_node(u[i], up[i], a * f[i], mh, ih);
                    f[i] = Real(0);
                }
            }
        }
    }

    // u+ += dt^2/m F(t_n) / (1 + h) at each member's source nodes (CpuTimeStepper::add_sources).
    void add_sources(std::int64_t n) {
        const double t = double(n) * p_.dt;
        for (std::size_t m = 0; m < group_.size(); ++m)
            for (const SourceTerm& s : group_[m]->sources) {
                const double w = evaluate_wavelet(s.wavelet, t - s.time_shift);
                if (w == 0.0) continue;
                const Real scale = a_[s.node] * ih_[uniform_h_ ? 0 : s.node];
                for (int c = 0; c < 3; ++c) up_[index(s.node, c, m)] += scale * static_cast<Real>(s.force[c] * w);
            }
    }

    const WaveProblem& p_;
    const std::vector<const ShotSources*>& group_;
    std::size_t nn_, bp_;  // nodes; members padded to whole vectors (the padding lanes stay 0)
    Real beta_over_dt_;
    bool uniform_h_;
    std::vector<Real> a_, ih_, mh_;
    std::array<Real, 256> lambda_{}, mu_{};
    Real s0_, s1_, s2_;
    std::vector<Real> u_, up_, f_;
    // TCOVFEM only: the INT8 matrix A, the material factors by id, the FP64 diagonal per node.
    TcovfemInt8Matrix tc_matrix_{};
    std::array<TcovfemMaterialFactors, 256> tc_factors_{};
    std::vector<double> tc_diagonal_;
};

template <class Real>
ShotGroupRecording run_group(const WaveProblem& p, const std::vector<const ShotSources*>& group,
                             const StepProgress& progress) {
    BatchedCpuStepper<Real> stepper(p, group);
    const std::size_t nt = static_cast<std::size_t>(p.steps), B = group.size();
    ShotGroupRecording out;
    out.members.resize(B);
    std::vector<RecordingRows> rows(B);
    // Each member's rows at u^{n-1}, u^n and u^{n+1}, [row * 3 + c]: a step's u^{n+1} is the next
    // step's u^n (the stepper's previous state after it), so each state is reduced once.
    std::vector<std::vector<double>> prev(B), cur(B), next(B);
    auto reduce = [&](std::size_t m, std::vector<double>& values, bool previous) {
        const auto& rec = group[m]->receivers;
        double x[3];
        reduce_recording_rows(
            rows[m],
            [&](std::size_t r) -> const double* {
                for (int c = 0; c < 3; ++c)
                    x[c] =
                        previous ? stepper.previous_at(m, rec[r].node, c) : stepper.displacement_at(m, rec[r].node, c);
                return x;
            },
            values.data());
    };
    for (std::size_t m = 0; m < B; ++m) {
        rows[m] = shot_recording_rows(*group[m]);
        const std::size_t nr = rows[m].size();
        out.members[m].displacement.assign(nr * nt * 3, 0.0);
        out.members[m].velocity.assign(nr * nt * 3, 0.0);
        for (auto* v : {&prev[m], &cur[m], &next[m]}) v->assign(nr * 3, 0.0);
        reduce(m, cur[m], false);
        reduce(m, prev[m], true);
    }
    const auto loop_t0 = std::chrono::steady_clock::now();
    for (std::int64_t n = 0; n < p.steps; ++n) {
        const std::size_t t = static_cast<std::size_t>(n);
        stepper.step(n);
        for (std::size_t m = 0; m < B; ++m) {
            reduce(m, next[m], false);
            ShotTraces& tr = out.members[m];
            for (std::size_t i = 0; i < rows[m].size(); ++i)
                for (std::size_t c = 0; c < 3; ++c) {
                    tr.displacement[(i * nt + t) * 3 + c] = cur[m][i * 3 + c];
                    tr.velocity[(i * nt + t) * 3 + c] = (next[m][i * 3 + c] - prev[m][i * 3 + c]) / (2.0 * p.dt);
                }
            std::swap(prev[m], cur[m]);
            std::swap(cur[m], next[m]);
        }
        if (progress && !progress(n + 1)) throw Cancelled{};
    }
    out.loop_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - loop_t0).count();
    return out;
}

}  // namespace

ShotGroupRecording run_shot_group_cpu(const WaveProblem& model, const std::vector<const ShotSources*>& group,
                                      const StepProgress& progress) {
    const std::string why = batched_shots_unsupported(model, Backend::Cpu);
    if (!why.empty()) throw RuntimeError("run_shot_group_cpu: " + why);
    return model.precision == Precision::Fp64 ? run_group<double>(model, group, progress)
                                              : run_group<float>(model, group, progress);
}

}  // namespace voxwave
