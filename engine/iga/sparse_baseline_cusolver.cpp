// The GPU baseline of the multi-frontal solver: cuSOLVER's sparse Cholesky on the same matrix.
#include <algorithm>
#include <string>
#include <vector>

#include "core/sparse_cholesky_cusolver.hpp"
#include "iga/sparse_baseline.hpp"

namespace voxwave::iga {

std::vector<double> sparse_direct_solve_cusolver(const IgaSpace& s, const SparseSystem& sys, const IgaLoad& load,
                                                 double* seconds, std::string* device) {
    const std::int64_t n = sys.size;
    // Full symmetric CSR from the lower-triangle CSC: cuSOLVER is given both triangles, so no
    // assumption about which one it reads.
    std::vector<int> count(std::size_t(n) + 1, 0);
    for (std::int64_t c = 0; c < n; ++c)
        for (std::int32_t k = sys.col_begin[std::size_t(c)]; k < sys.col_begin[std::size_t(c) + 1]; ++k) {
            const std::int64_t r = sys.row[std::size_t(k)];
            ++count[std::size_t(r) + 1];
            if (r != c) ++count[std::size_t(c) + 1];
        }
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    std::vector<int> row_ptr = count, col(std::size_t(count.back()));
    std::vector<double> val(col.size());
    std::vector<int> fill(row_ptr.begin(), row_ptr.end() - 1);
    for (std::int64_t c = 0; c < n; ++c)
        for (std::int32_t k = sys.col_begin[std::size_t(c)]; k < sys.col_begin[std::size_t(c) + 1]; ++k) {
            const int r = sys.row[std::size_t(k)];
            const double v = sys.value[std::size_t(k)];
            col[std::size_t(fill[std::size_t(r)])] = int(c), val[std::size_t(fill[std::size_t(r)]++)] = v;
            if (r != c) col[std::size_t(fill[std::size_t(c)])] = r, val[std::size_t(fill[std::size_t(c)]++)] = v;
        }
    // Column indices sorted within each row (CSR as cuSPARSE expects it).
    for (std::int64_t r = 0; r < n; ++r) {
        const auto b = std::size_t(row_ptr[std::size_t(r)]), e = std::size_t(row_ptr[std::size_t(r) + 1]);
        std::vector<std::pair<int, double>> row(e - b);
        for (std::size_t k = b; k < e; ++k) row[k - b] = {col[k], val[k]};
        std::sort(row.begin(), row.end());
        for (std::size_t k = b; k < e; ++k) col[k] = row[k - b].first, val[k] = row[k - b].second;
    }
    const std::vector<double> x = cusolver_sparse_cholesky_solve(int(n), row_ptr, col, val, sys.rhs, seconds, device);
    return expand_free_solution(s, x.data(), load);
}

}  // namespace voxwave::iga
