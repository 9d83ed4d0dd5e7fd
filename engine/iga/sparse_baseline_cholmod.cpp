// The CHOLMOD baseline; compiled to nothing when the build did not find SuiteSparse.
#include "iga/sparse_baseline.hpp"

#if VOXWAVE_HAVE_CHOLMOD
#include <cholmod.h>

#include <chrono>

#include "core/errors.hpp"

namespace voxwave::iga {

namespace {
double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// cholmod_common with its cleanup tied to scope.
struct Cholmod {
    cholmod_common c;
    Cholmod() {
        cholmod_start(&c);
        c.supernodal = CHOLMOD_SUPERNODAL;
    }
    ~Cholmod() { cholmod_finish(&c); }
};
}  // namespace

std::string sparse_direct_solver_name() {
    return "CHOLMOD " + std::to_string(CHOLMOD_MAIN_VERSION) + "." + std::to_string(CHOLMOD_SUB_VERSION) + "." +
           std::to_string(CHOLMOD_SUBSUB_VERSION) + " supernodal";
}

std::vector<double> sparse_direct_solve(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                        SparseTimings* timings) {
    Cholmod cm;
    cholmod_sparse A{};
    A.nrow = A.ncol = static_cast<std::size_t>(sys.size);
    A.nzmax = static_cast<std::size_t>(sys.nonzeros());
    A.p = const_cast<std::int32_t*>(sys.col_begin.data());
    A.i = const_cast<std::int32_t*>(sys.row.data());
    A.x = const_cast<double*>(sys.value.data());
    A.stype = -1;  // symmetric, lower triangle stored
    A.itype = CHOLMOD_INT;
    A.xtype = CHOLMOD_REAL;
    A.dtype = CHOLMOD_DOUBLE;
    A.sorted = 1;
    A.packed = 1;
    cholmod_dense b{};
    b.nrow = A.nrow;
    b.ncol = 1;
    b.nzmax = A.nrow;
    b.d = A.nrow;
    b.x = const_cast<double*>(sys.rhs.data());
    b.xtype = CHOLMOD_REAL;
    b.dtype = CHOLMOD_DOUBLE;

    const auto t0 = std::chrono::steady_clock::now();
    cholmod_factor* L = cholmod_analyze(&A, &cm.c);
    if (!L) throw RuntimeError("CHOLMOD: analysis failed");
    const auto t1 = std::chrono::steady_clock::now();
    const int ok = cholmod_factorize(&A, L, &cm.c);
    const auto t2 = std::chrono::steady_clock::now();
    if (!ok || cm.c.status != CHOLMOD_OK) {
        cholmod_free_factor(&L, &cm.c);
        throw RuntimeError("CHOLMOD: factorisation failed (status " + std::to_string(cm.c.status) + ")");
    }
    cholmod_dense* x = cholmod_solve(CHOLMOD_A, L, &b, &cm.c);
    const double solve_s = seconds_since(t2);
    cholmod_free_factor(&L, &cm.c);
    if (!x) throw RuntimeError("CHOLMOD: solve failed");
    std::vector<double> out = expand_free_solution(s, static_cast<const double*>(x->x), load);
    cholmod_free_dense(&x, &cm.c);
    if (timings) {
        timings->analyse_seconds = std::chrono::duration<double>(t1 - t0).count();
        timings->factor_seconds = std::chrono::duration<double>(t2 - t1).count();
        timings->solve_seconds = solve_s;
    }
    return out;
}

}  // namespace voxwave::iga
#endif
