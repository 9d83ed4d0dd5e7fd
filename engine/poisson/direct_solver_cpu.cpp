#include <Eigen/Core>
#include <bit>
#include <cstdint>
#include <memory>

#include "core/errors.hpp"
#include "poisson/direct_solver.hpp"

namespace voxwave::poisson {

PoissonPrecision parse_poisson_precision(const std::string& name, const std::string& field) {
    if (name == "fp64") return PoissonPrecision::Fp64;
    if (name == "fp32") return PoissonPrecision::Fp32;
    if (name == "tf32") return PoissonPrecision::Tf32;
    if (name == "fp16") return PoissonPrecision::Fp16;
    throw InputError("", field, "unknown precision '" + name + "' (expected fp64, fp32, tf32 or fp16)");
}

const char* poisson_precision_name(PoissonPrecision precision) {
    switch (precision) {
        case PoissonPrecision::Fp64:
            return "fp64";
        case PoissonPrecision::Fp32:
            return "fp32";
        case PoissonPrecision::Tf32:
            return "tf32";
        case PoissonPrecision::Fp16:
            return "fp16";
    }
    return "?";
}

double direct_solve_flops(const PrehandledPoisson& p) {
    const double nE = p.nE, n = p.cell_nodes;
    return 2 * nE * nE + 2 * 2 * double(p.macro_cells) * n * n + 4.0 * double(p.D.nonZeros()) +
           4.0 * double(p.B.nonZeros());
}

namespace {

// Rounding to the stored format, applied after every step (what the GPU's memory holds).
float round_to(PoissonPrecision precision, float v) {
    if (precision == PoissonPrecision::Fp16) return static_cast<float>(Eigen::half(v));
    if (precision == PoissonPrecision::Tf32) {
        // 10 explicit mantissa bits, round to nearest (ties away), as the Tensor Cores read FP32 input.
        std::uint32_t u = std::bit_cast<std::uint32_t>(v);
        u = (u + 0x1000u) & 0xFFFFE000u;
        return std::bit_cast<float>(u);
    }
    return v;
}

template <class M>
void round_all(PoissonPrecision precision, M& m) {
    if constexpr (std::is_same_v<typename M::Scalar, float>)
        if (precision == PoissonPrecision::Fp16)
            m = m.unaryExpr([](float v) { return round_to(PoissonPrecision::Fp16, v); });
}

template <class M>
M tf32_inputs(PoissonPrecision precision, const M& m) {
    if constexpr (std::is_same_v<typename M::Scalar, float>)
        if (precision == PoissonPrecision::Tf32)
            return m.unaryExpr([](float v) { return round_to(PoissonPrecision::Tf32, v); });
    return m;
}

struct CpuSolverBase {
    virtual ~CpuSolverBase() = default;
    virtual Eigen::MatrixXd solve(const Eigen::MatrixXd& b) const = 0;
};

// The matrices in the solver's format, converted once.
template <class T>
struct CpuTypedSolver : CpuSolverBase {
    using Mat = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic>;
    using Sp = Eigen::SparseMatrix<T, Eigen::ColMajor, int>;
    const PrehandledPoisson& p;
    PoissonPrecision precision;
    Sp B, D, Bt, Dt;
    Mat Pinv;
    std::vector<Mat> Cinv;

    Sp sparse(const SparseMatrixd& m) const {
        Sp s = m.cast<T>();
        if (precision == PoissonPrecision::Fp16)
            for (int k = 0; k < s.outerSize(); ++k)
                for (typename Sp::InnerIterator it(s, k); it; ++it)
                    it.valueRef() = T(round_to(precision, float(it.value())));
        return s;
    }
    Mat dense(const Eigen::MatrixXd& m) const {
        Mat d = m.cast<T>();
        round_all(precision, d);
        return tf32_inputs(precision, d);
    }

    CpuTypedSolver(const PrehandledPoisson& pre, PoissonPrecision prec) : p(pre), precision(prec) {
        B = sparse(p.B);
        D = sparse(p.D);
        Bt = B.transpose();
        Dt = D.transpose();
        Pinv = dense(p.pi_inverse);
        for (const auto& mc : p.classes) Cinv.push_back(dense(mc.inverse));
    }

    // C^-1 applied class by class: columns = the macro cells of the class (for each right-hand side).
    Mat apply_cinv(const Mat& in) const {
        const int nI = p.nI, n = p.cell_nodes, K = static_cast<int>(in.cols());
        const Mat x_in = tf32_inputs(precision, in);
        Mat out(nI, K);
        for (std::size_t c = 0; c < p.classes.size(); ++c) {
            const auto& mc = p.classes[c];
            for (int k = 0; k < K; ++k) {
                Eigen::Map<const Mat> x(x_in.data() + std::size_t(k) * nI + mc.first_position, n, mc.cells);
                Eigen::Map<Mat> y(out.data() + std::size_t(k) * nI + mc.first_position, n, mc.cells);
                y.noalias() = Cinv[c] * x;
            }
        }
        round_all(precision, out);
        return out;
    }

    Eigen::MatrixXd solve(const Eigen::MatrixXd& b64) const override {
        const int nC = p.nC, nE = p.nE, nI = p.nI, K = static_cast<int>(b64.cols());
        Mat b = b64.cast<T>();
        round_all(precision, b);
        const Mat bC = b.topRows(nC), bE = b.middleRows(nC, nE), bI = b.bottomRows(nI);
        // Step 4.
        const Mat y = apply_cinv(bI);
        Mat r = bE;
        if (nC > 0) {
            r -= Bt * bC;
            round_all(precision, r);
        }
        r -= D * y;
        round_all(precision, r);
        Mat xE(nE, K);
        xE.noalias() = Pinv * tf32_inputs(precision, r);
        round_all(precision, xE);
        // Step 5.
        Mat xC = bC;
        if (nC > 0) {
            xC -= B * xE;
            round_all(precision, xC);
        }
        // Step 6.
        Mat t = bI - Dt * xE;
        round_all(precision, t);
        const Mat xI = apply_cinv(t);

        Eigen::MatrixXd x(p.unknowns, K);
        x.topRows(nC) = xC.template cast<double>();
        x.middleRows(nC, nE) = xE.template cast<double>();
        x.bottomRows(nI) = xI.template cast<double>();
        return x;
    }
};

}  // namespace

struct CpuPoissonSolver::Impl {
    std::unique_ptr<CpuSolverBase> solver;
};

CpuPoissonSolver::CpuPoissonSolver(const PrehandledPoisson& p, PoissonPrecision precision)
    : impl_(std::make_unique<Impl>()) {
    if (precision == PoissonPrecision::Fp64)
        impl_->solver = std::make_unique<CpuTypedSolver<double>>(p, precision);
    else
        impl_->solver = std::make_unique<CpuTypedSolver<float>>(p, precision);
}
CpuPoissonSolver::~CpuPoissonSolver() = default;

Eigen::MatrixXd CpuPoissonSolver::solve(const Eigen::MatrixXd& b_prehandled) const {
    return impl_->solver->solve(b_prehandled);
}

Eigen::MatrixXd solve_prehandled_cpu(const PrehandledPoisson& p, PoissonPrecision precision,
                                     const Eigen::MatrixXd& b_prehandled) {
    if (b_prehandled.rows() != p.unknowns)
        throw RuntimeError("solve_prehandled_cpu: right-hand side has the wrong size");
    return CpuPoissonSolver(p, precision).solve(b_prehandled);
}

}  // namespace voxwave::poisson
