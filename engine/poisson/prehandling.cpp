#include "poisson/prehandling.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "poisson/hierarchical_basis.hpp"

namespace voxwave::poisson {

BlockCounts block_counts(PoissonGrid grid, int level, int coarse_level) {
    BlockCounts c;
    c.N = interior_node_count(grid, level);
    c.nC = interior_node_count(grid, coarse_level);
    c.macro_cells = cell_count(grid, coarse_level);
    const long long m = 1LL << (level - coarse_level);
    c.cell_nodes = grid == PoissonGrid::UnitSquare ? (m - 1) * (m - 1) : (m - 1) * (m - 2) / 2;
    c.nI = c.macro_cells * c.cell_nodes;
    c.nE = c.N - c.nC - c.nI;
    return c;
}

double dense_preprocessing_bytes(const BlockCounts& c, int classes) {
    const double nE = double(c.nE), n = double(c.cell_nodes);
    return 8.0 * (2 * nE * nE + 2.0 * classes * n * n + double(c.nC) * nE) + 400.0 * double(c.N);
}

void check_poisson_levels(PoissonGrid grid, int level, int coarse_level) {
    if (level < 0) throw InputError("", "--level", "must be >= 0");
    if (coarse_level < 0) throw InputError("", "--coarse-level", "must be >= 0");
    if (coarse_level > level)
        throw InputError(
            "", "--coarse-level",
            "must not exceed --level (L0 = " + std::to_string(coarse_level) + " > L = " + std::to_string(level) + ")");
    if (interior_node_count(grid, level) == 0)
        throw InputError("", "--level",
                         std::string(poisson_grid_name(grid)) + " has no interior node at level " +
                             std::to_string(level) + " (use --level >= 1)");
    if (level > 12)
        throw InputError("", "--level", "level " + std::to_string(level) + " is beyond memory (at most 12)");
    const BlockCounts c = block_counts(grid, level, coarse_level);
    const double need = dense_preprocessing_bytes(c, grid == PoissonGrid::UnitSquare ? 1 : 3);
    const double have = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGE_SIZE));
    if (need > 0.8 * have) {
        std::ostringstream s;
        s.precision(3);
        s << "level " << level << " with coarse level " << coarse_level << " is beyond memory: the dense FP64 "
          << "preprocessing (Pi^-1 is " << c.nE << " x " << c.nE << ", C_i^-1 " << c.cell_nodes << " x " << c.cell_nodes
          << ") needs about " << need / (1 << 30) << " GiB, this machine has " << have / (1 << 30) << " GiB";
        throw InputError("", "--level", s.str());
    }
}

namespace {

// Macro cell vertices in a canonical order (triangles: by ascending angle) so that similar
// cells number their interior nodes the same way and get the same block C_i.
struct CanonicalCell {
    std::array<int, 4> v{};
    std::array<double, 3> angles{};
    std::string key, shape;
};

CanonicalCell canonical_cell(const PoissonMesh& m, const std::array<int, 4>& c) {
    CanonicalCell out;
    if (m.vertices_per_cell == 4) {
        out.v = c;
        const double ax = m.xy[c[1]][0] - m.xy[c[0]][0], ay = m.xy[c[1]][1] - m.xy[c[0]][1];
        const double bx = m.xy[c[3]][0] - m.xy[c[0]][0], by = m.xy[c[3]][1] - m.xy[c[0]][1];
        const double la = std::hypot(ax, ay), lb = std::hypot(bx, by);
        const double angle = std::acos((ax * bx + ay * by) / (la * lb)) * 180 / std::numbers::pi;
        out.angles = {angle, 180 - angle, la / lb};
        const bool square = std::abs(angle - 90) < 1e-9 && std::abs(la - lb) < 1e-12 * la;
        out.shape = square ? "square" : "parallelogram";
        std::ostringstream k;
        k.precision(9);
        k << "q" << angle << "/" << la / lb;
        out.key = k.str();
        return out;
    }
    double ang[3];
    for (int k = 0; k < 3; ++k) {
        const auto &p = m.xy[c[k]], &q = m.xy[c[(k + 1) % 3]], &r = m.xy[c[(k + 2) % 3]];
        const double ux = q[0] - p[0], uy = q[1] - p[1], wx = r[0] - p[0], wy = r[1] - p[1];
        ang[k] = std::acos((ux * wx + uy * wy) / (std::hypot(ux, uy) * std::hypot(wx, wy))) * 180 / std::numbers::pi;
    }
    std::array<int, 3> idx{0, 1, 2};
    auto rounded = [&](int k) { return std::round(ang[k] * 1e6); };
    std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) { return rounded(a) < rounded(b); });
    for (int k = 0; k < 3; ++k) {
        out.v[k] = c[idx[k]];
        out.angles[k] = ang[idx[k]];
    }
    out.v[3] = -1;
    const bool eq01 = rounded(idx[0]) == rounded(idx[1]), eq12 = rounded(idx[1]) == rounded(idx[2]);
    const double big = out.angles[2];
    const char* kind = std::abs(big - 90) < 1e-6 ? "right" : big > 90 ? "obtuse" : "acute";
    if (eq01 && eq12)
        out.shape = "equilateral";
    else if (eq01 || eq12)
        out.shape = std::string("isosceles ") + kind;
    else
        out.shape = std::string("scalene") + (std::string(kind) == "right" ? " right" : "");
    std::ostringstream k;
    k.precision(9);
    k << "t" << std::round(out.angles[0] * 1e6) << "/" << std::round(out.angles[1] * 1e6);
    out.key = k.str();
    return out;
}

// Integer coordinates (i, j) of a node in the canonical frame of a macro cell refined m times
// per edge: node = v0 + i/m (v1 - v0) + j/m (v_last - v0).
std::array<long long, 2> local_coordinates(const PoissonMesh& m, const CanonicalCell& cell, int node, int per_edge) {
    const auto& o = m.xy[cell.v[0]];
    const auto& a = m.xy[cell.v[1]];
    const auto& b = m.xy[m.vertices_per_cell == 4 ? cell.v[3] : cell.v[2]];
    const double ax = a[0] - o[0], ay = a[1] - o[1], bx = b[0] - o[0], by = b[1] - o[1];
    const double px = m.xy[node][0] - o[0], py = m.xy[node][1] - o[1];
    const double det = ax * by - ay * bx;
    const double s = (px * by - py * bx) / det, t = (ax * py - ay * px) / det;
    return {std::llround(s * per_edge), std::llround(t * per_edge)};
}

}  // namespace

PrehandledPoisson prehandle(const PoissonMesh& mesh, int coarse_level, const SparseMatrixd& A,
                            const std::vector<int>& dof, const PrehandleOptions& options, const ProgressFn& progress) {
    // VOXWAVE_POISSON_TRACE=1 prints when each stage ends (seconds since the start) on stderr.
    const char* trace = std::getenv("VOXWAVE_POISSON_TRACE");
    const auto start = std::chrono::steady_clock::now();
    auto report = [&](int done) {
        if (trace && *trace == '1')
            std::fprintf(stderr, "[poisson] prehandling stage %d of 6 done after %.2f s\n", done,
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (progress && !progress(done, 6)) throw Cancelled{};
    };
    const int L = mesh.level, L0 = coarse_level;
    if (L0 < 0 || L0 > L) throw InputError("", "--coarse-level", "must lie in 0 .. --level");
    PrehandledPoisson p;
    p.level = L;
    p.coarse_level = L0;
    p.unknowns = static_cast<int>(A.rows());
    const int N = p.unknowns;
    const int per_edge = 1 << (L - L0);
    const bool quads = mesh.vertices_per_cell == 4;
    p.cell_nodes = quads ? (per_edge - 1) * (per_edge - 1) : (per_edge - 1) * (per_edge - 2) / 2;

    // 1. Hierarchical basis from the coarse level up.
    p.S = hierarchical_transform(mesh, dof, N, L0);
    const SparseMatrixd At = SparseMatrixd(p.S.transpose() * A) * p.S;
    report(1);

    // 2. Node classes C / E / I and the similarity classes of the macro cells.
    const auto& macro = mesh.cells[L0];
    p.macro_cells = static_cast<int>(macro.size());
    std::vector<int> kind(N, 1);  // 0 C, 1 E, 2 I
    std::vector<int> cell_of(N, -1), local_of(N, -1);
    for (int i = 0; i < static_cast<int>(mesh.node_count()); ++i)
        if (dof[i] >= 0 && mesh.node_level[i] <= L0) kind[dof[i]] = 0;
    std::map<std::string, std::vector<int>> class_cells;
    std::map<std::string, CanonicalCell> class_shape;
    const long long descendants = 1LL << (2 * (L - L0));
    const auto& fine = mesh.fine_cells();
    for (int k = 0; k < p.macro_cells; ++k) {
        const CanonicalCell cc = canonical_cell(mesh, macro[k]);
        class_cells[cc.key].push_back(k);
        class_shape.emplace(cc.key, cc);
        for (long long e = k * descendants; e < (k + 1) * descendants; ++e)
            for (int a = 0; a < mesh.vertices_per_cell; ++a) {
                const int node = fine[e][a], d = dof[node];
                if (d < 0 || kind[d] == 0 || cell_of[d] >= 0) continue;
                const auto [i, j] = local_coordinates(mesh, cc, node, per_edge);
                const bool inside =
                    quads ? (i > 0 && j > 0 && i < per_edge && j < per_edge) : (i > 0 && j > 0 && i + j < per_edge);
                if (!inside) continue;
                kind[d] = 2;
                cell_of[d] = k;
                // Row j of the cell, then i: the same geometric order in every cell.
                local_of[d] = quads ? int((j - 1) * (per_edge - 1) + (i - 1))
                                    : int((j - 1) * (per_edge - 1) - (j - 1) * j / 2 + (i - 1));
            }
    }
    // Classes ordered by their largest angle: seed 002 Table 4's C_1 (isosceles right),
    // C_2 (scalene), C_3 (isosceles obtuse).
    std::vector<std::string> keys;
    for (auto& [key, cells] : class_cells) keys.push_back(key);
    std::sort(keys.begin(), keys.end(), [&](const std::string& a, const std::string& b) {
        return class_shape[a].angles[2] < class_shape[b].angles[2];
    });
    std::vector<int> cell_position(p.macro_cells, 0), cell_class(p.macro_cells, 0);
    for (int c = 0, pos = 0; c < static_cast<int>(keys.size()); ++c) {
        MacroCellClass mc;
        mc.shape = class_shape[keys[c]].shape;
        mc.angles = class_shape[keys[c]].angles;
        mc.cells = static_cast<int>(class_cells[keys[c]].size());
        mc.first_position = pos;
        for (int k : class_cells[keys[c]]) {
            cell_position[k] = pos;
            cell_class[k] = c;
            pos += p.cell_nodes;
        }
        p.classes.push_back(std::move(mc));
    }
    std::vector<int> position(N);
    for (int d = 0; d < N; ++d) {
        if (kind[d] == 0) position[d] = p.nC++;
    }
    for (int d = 0; d < N; ++d)
        if (kind[d] == 1) position[d] = p.nC + p.nE++;
    for (int d = 0; d < N; ++d)
        if (kind[d] == 2) {
            position[d] = p.nC + p.nE + cell_position[cell_of[d]] + local_of[d];
            ++p.nI;
        }
    if (p.nI != p.macro_cells * p.cell_nodes)
        throw RuntimeError("prehandling: " + std::to_string(p.nI) + " interior nodes found, expected " +
                           std::to_string(p.macro_cells * p.cell_nodes));
    p.dof_of_position.assign(N, -1);
    for (int d = 0; d < N; ++d) p.dof_of_position[position[d]] = d;
    report(2);

    // 3. Blocks of A~ in the new order, scaled by the partial Cholesky factor.
    const int nC = p.nC, nE = p.nE, nI = p.nI, n = p.cell_nodes;
    p.scale.resize(nE + nI);
    for (int d = 0; d < N; ++d)
        if (kind[d] != 0) p.scale[position[d] - nC] = std::sqrt(At.coeff(d, d));
    Eigen::MatrixXd Acc = Eigen::MatrixXd::Zero(nC, nC);
    std::vector<Eigen::Triplet<double>> tM, tE, tD;
    std::vector<std::vector<Eigen::Triplet<double>>> tCell(p.macro_cells);
    for (int col = 0; col < N; ++col)
        for (SparseMatrixd::InnerIterator it(At, col); it; ++it) {
            const int r = static_cast<int>(it.row());
            const int pr = position[r], pc = position[col];
            const int kr = kind[r], kc = kind[col];
            const double v = it.value();
            if (kr == 0 && kc == 0) {
                Acc(pr, pc) = v;
            } else if (kr == 0 && kc == 1) {
                tM.emplace_back(pr, pc - nC, v / p.scale[pc - nC]);
            } else if (kr == 0 && kc == 2) {
                p.coarse_interior_coupling =
                    std::max(p.coarse_interior_coupling, std::abs(v) / (std::sqrt(At.coeff(r, r)) * p.scale[pc - nC]));
            } else if (kr == 1 && kc == 1) {
                tE.emplace_back(pr - nC, pc - nC, v / (p.scale[pr - nC] * p.scale[pc - nC]));
            } else if (kr == 1 && kc == 2) {
                tD.emplace_back(pr - nC, pc - nC - nE, v / (p.scale[pr - nC] * p.scale[pc - nC]));
            } else if (kr == 2 && kc == 2) {
                const double s = v / (p.scale[pr - nC] * p.scale[pc - nC]);
                if (cell_of[r] != cell_of[col])
                    p.cell_coupling = std::max(p.cell_coupling, std::abs(s));
                else
                    tCell[cell_of[r]].emplace_back(local_of[r], local_of[col], s);
            }
        }
    p.E.resize(nE, nE);
    p.E.setFromTriplets(tE.begin(), tE.end());
    p.D.resize(nE, nI);
    p.D.setFromTriplets(tD.begin(), tD.end());
    report(3);

    // Coarse block: full Cholesky, so A'_CC = I and B = L^-1 A~_CE diag(A~_EE)^-1/2.
    p.coarse_factor = Eigen::MatrixXd::Zero(nC, nC);
    p.B.resize(nC, nE);
    if (nC > 0) {
        Eigen::LLT<Eigen::MatrixXd> llt(Acc);
        if (llt.info() != Eigen::Success) throw RuntimeError("prehandling: the coarse block is not positive definite");
        p.coarse_factor = llt.matrixL();
        SparseMatrixd M(nC, nE);
        M.setFromTriplets(tM.begin(), tM.end());
        std::vector<Eigen::Triplet<double>> tB;
        const int chunk = 2048;
        for (int j0 = 0; j0 < nE; j0 += chunk) {
            const int w = std::min(chunk, nE - j0);
            Eigen::MatrixXd Md = Eigen::MatrixXd(M.middleCols(j0, w));
            p.coarse_factor.triangularView<Eigen::Lower>().solveInPlace(Md);
            for (int j = 0; j < w; ++j)
                for (int i = 0; i < nC; ++i)
                    if (Md(i, j) != 0) tB.emplace_back(i, j0 + j, Md(i, j));
        }
        p.B.setFromTriplets(tB.begin(), tB.end());
    }

    // The blocks C_i: one per class, checked equal over the class's cells.
    for (int k = 0; k < p.macro_cells; ++k) {
        MacroCellClass& mc = p.classes[cell_class[k]];
        SparseMatrixd block(n, n);
        block.setFromTriplets(tCell[k].begin(), tCell[k].end());
        tCell[k].clear();
        if (mc.block.rows() == 0)
            mc.block = std::move(block);
        else
            p.class_mismatch =
                std::max(p.class_mismatch, SparseMatrixd(block - mc.block).coeffs().cwiseAbs().maxCoeff());
    }
    if (p.class_mismatch > 1e-10)
        throw RuntimeError("prehandling: similar macro cells gave different blocks C_i (difference " +
                           std::to_string(p.class_mismatch) + ")");
    report(4);
    if (!options.build_inverses) return p;

    for (MacroCellClass& mc : p.classes) {
        Eigen::LLT<Eigen::MatrixXd> llt{Eigen::MatrixXd(mc.block)};
        if (llt.info() != Eigen::Success) throw RuntimeError("prehandling: a block C_i is not positive definite");
        mc.inverse = llt.solve(Eigen::MatrixXd::Identity(n, n));
    }
    report(5);
    if (nE > 0 && options.spd_inverse) {
        p.pi_inverse = options.spd_inverse(schur_pi(p));
    } else if (nE > 0) {
        Eigen::LLT<Eigen::MatrixXd> llt(schur_pi(p));
        if (llt.info() != Eigen::Success) throw RuntimeError("prehandling: Pi is not positive definite");
        p.pi_inverse = llt.solve(Eigen::MatrixXd::Identity(nE, nE));
    } else {
        p.pi_inverse.resize(0, 0);
    }
    report(6);
    return p;
}

Eigen::MatrixXd schur_pi(const PrehandledPoisson& p) {
    const int nE = p.nE, n = p.cell_nodes;
    Eigen::MatrixXd Pi = Eigen::MatrixXd(p.E);
    if (p.nC > 0) {
        const Eigen::MatrixXd Bd = Eigen::MatrixXd(p.B);
        Pi.noalias() -= Bd.transpose() * Bd;
    }
    // D C^-1 D^T, one macro cell at a time: only the E nodes on its edges couple to its interior.
    std::vector<std::pair<int, int>> cells;  // (class, first I position)
    for (int c = 0; c < static_cast<int>(p.classes.size()); ++c)
        for (int k = 0; k < p.classes[c].cells; ++k) cells.emplace_back(c, p.classes[c].first_position + k * n);
#pragma omp parallel for schedule(dynamic)
    for (int k = 0; k < static_cast<int>(cells.size()); ++k) {
        const SparseMatrixd Dk = p.D.middleCols(cells[k].second, n);
        std::vector<int> rows;
        std::vector<int> local(nE, -1);
        for (int j = 0; j < n; ++j)
            for (SparseMatrixd::InnerIterator it(Dk, j); it; ++it)
                if (local[it.row()] < 0) {
                    local[it.row()] = static_cast<int>(rows.size());
                    rows.push_back(static_cast<int>(it.row()));
                }
        Eigen::MatrixXd Dd = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(rows.size()), n);
        for (int j = 0; j < n; ++j)
            for (SparseMatrixd::InnerIterator it(Dk, j); it; ++it) Dd(local[it.row()], j) = it.value();
        const Eigen::MatrixXd G = Dd * p.classes[cells[k].first].inverse * Dd.transpose();
#pragma omp critical(voxwave_schur_pi)
        for (std::size_t a = 0; a < rows.size(); ++a)
            for (std::size_t b = 0; b < rows.size(); ++b) Pi(rows[a], rows[b]) -= G(a, b);
    }
    return Pi;
}

Eigen::MatrixXd prehandle_rhs(const PrehandledPoisson& p, const Eigen::MatrixXd& b) {
    const Eigen::MatrixXd y = p.S.transpose() * b;
    Eigen::MatrixXd out(p.unknowns, b.cols());
    for (int pos = 0; pos < p.unknowns; ++pos) out.row(pos) = y.row(p.dof_of_position[pos]);
    if (p.nC > 0) p.coarse_factor.triangularView<Eigen::Lower>().solveInPlace(out.topRows(p.nC));
    for (int i = 0; i < p.nE + p.nI; ++i) out.row(p.nC + i) /= p.scale[i];
    return out;
}

Eigen::MatrixXd unprehandle_solution(const PrehandledPoisson& p, const Eigen::MatrixXd& xp) {
    Eigen::MatrixXd t = xp;
    if (p.nC > 0) p.coarse_factor.transpose().triangularView<Eigen::Upper>().solveInPlace(t.topRows(p.nC));
    for (int i = 0; i < p.nE + p.nI; ++i) t.row(p.nC + i) /= p.scale[i];
    Eigen::MatrixXd hier(p.unknowns, xp.cols());
    for (int pos = 0; pos < p.unknowns; ++pos) hier.row(p.dof_of_position[pos]) = t.row(pos);
    return p.S * hier;
}

SparseMatrixd prehandled_matrix(const PrehandledPoisson& p) {
    const int nC = p.nC, nE = p.nE, n = p.cell_nodes;
    std::vector<Eigen::Triplet<double>> t;
    t.reserve(std::size_t(nC) + 2 * (p.B.nonZeros() + p.D.nonZeros()) + p.E.nonZeros() + std::size_t(p.nI) * 9);
    for (int i = 0; i < nC; ++i) t.emplace_back(i, i, 1.0);
    for (int c = 0; c < p.B.outerSize(); ++c)
        for (SparseMatrixd::InnerIterator it(p.B, c); it; ++it) {
            t.emplace_back(it.row(), nC + c, it.value());
            t.emplace_back(nC + c, it.row(), it.value());
        }
    for (int c = 0; c < p.E.outerSize(); ++c)
        for (SparseMatrixd::InnerIterator it(p.E, c); it; ++it) t.emplace_back(nC + it.row(), nC + c, it.value());
    for (int c = 0; c < p.D.outerSize(); ++c)
        for (SparseMatrixd::InnerIterator it(p.D, c); it; ++it) {
            t.emplace_back(nC + it.row(), nC + nE + c, it.value());
            t.emplace_back(nC + nE + c, nC + it.row(), it.value());
        }
    for (const MacroCellClass& mc : p.classes)
        for (int k = 0; k < mc.cells; ++k) {
            const int off = nC + nE + mc.first_position + k * n;
            for (int c = 0; c < mc.block.outerSize(); ++c)
                for (SparseMatrixd::InnerIterator it(mc.block, c); it; ++it)
                    t.emplace_back(off + it.row(), off + c, it.value());
        }
    SparseMatrixd Ap(p.unknowns, p.unknowns);
    Ap.setFromTriplets(t.begin(), t.end());
    return Ap;
}

}  // namespace voxwave::poisson
