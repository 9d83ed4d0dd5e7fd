// Prehandling of seed 002 (§1.2, §2): the hierarchical stiffness A~ = S^T A S, the partial
// Cholesky factor (full on the coarse grid, the diagonal elsewhere) and the 3 x 3 block form
//
//          ( I    B  0 )    C: coarse grid nodes (level <= L0)
//     A' = ( B^T  E  D )    E: finer nodes on the edges of the coarse cells
//          ( 0   D^T C )    I: nodes inside the coarse (macro) cells, cell by cell
//
// with C = diag(C_1 .. C_cells) and one C_i per class of similar macro cells. Everything here
// is FP64; the solver's three steps then run in any precision (direct_solver*.hpp).
#pragma once

#include <Eigen/Dense>
#include <functional>
#include <string>
#include <vector>

#include "core/progress.hpp"
#include "poisson/poisson_assembly.hpp"

namespace voxwave::poisson {

// Macro cells that are similar (same angles in the same order) share one block C_i.
struct MacroCellClass {
    std::string shape;               // "square", "isosceles right", "scalene", "isosceles obtuse", ...
    std::array<double, 3> angles{};  // degrees, ascending (triangles)
    int cells = 0;
    int first_position = 0;   // I-numbering of its first node; its cells follow one another
    SparseMatrixd block;      // C_i (cell_nodes x cell_nodes)
    Eigen::MatrixXd inverse;  // C_i^-1, FP64
};

struct PrehandledPoisson {
    int level = 0, coarse_level = 0;
    int unknowns = 0;  // N
    int nC = 0, nE = 0, nI = 0;
    int cell_nodes = 0;  // interior nodes of one macro cell
    int macro_cells = 0;
    std::vector<int> dof_of_position;  // [C | E | I] position -> dof
    SparseMatrixd S;                   // hierarchical transform (dof numbering)
    Eigen::MatrixXd coarse_factor;     // Cholesky factor of A~_CC (lower)
    Eigen::VectorXd scale;             // sqrt(diag A~) of the E and I positions
    SparseMatrixd B, E, D;             // nC x nE, nE x nE, nE x nI
    std::vector<MacroCellClass> classes;
    Eigen::MatrixXd pi_inverse;           // Pi^-1 (nE x nE), when built
    double coarse_interior_coupling = 0;  // max |A'_CI|: zero in exact arithmetic (Q1 squares, P1)
    double cell_coupling = 0;             // max |C| entry between different macro cells: zero too
    double class_mismatch = 0;            // max difference between a cell's block and its class's C_i
};

struct PrehandleOptions {
    bool build_inverses = true;  // C_i^-1 and Pi^-1 (dense); off for counting (Table 3) only
    // Inverse of the dense SPD matrix Pi in FP64; empty: Eigen's LLT on the CPU. The CUDA
    // backend passes cuSOLVER's (potrf + potri), which is what makes L >= 7 practical.
    std::function<Eigen::MatrixXd(const Eigen::MatrixXd&)> spd_inverse;
};

// Builds the blocks for the mesh's finest level with coarse level L0 (0 <= L0 <= mesh.level).
PrehandledPoisson prehandle(const PoissonMesh& mesh, int coarse_level, const SparseMatrixd& A,
                            const std::vector<int>& dof, const PrehandleOptions& options = {},
                            const ProgressFn& progress = {});

// Pi = E - D C^-1 D^T - B^T B, dense (needs the C_i^-1).
Eigen::MatrixXd schur_pi(const PrehandledPoisson& p);

// b' = L^-1 P S^T b (rows in [C | E | I] order) and x = S P^T L^-T x'.
Eigen::MatrixXd prehandle_rhs(const PrehandledPoisson& p, const Eigen::MatrixXd& b);
Eigen::MatrixXd unprehandle_solution(const PrehandledPoisson& p, const Eigen::MatrixXd& x_prehandled);

// The whole prehandled matrix A' (sparse, [C | E | I] order); for condition numbers and tests.
SparseMatrixd prehandled_matrix(const PrehandledPoisson& p);

// Sizes without building anything: |C|, |E|, |I|, nodes per macro cell, macro cells.
struct BlockCounts {
    long long N = 0, nC = 0, nE = 0, nI = 0, cell_nodes = 0, macro_cells = 0;
};
BlockCounts block_counts(PoissonGrid grid, int level, int coarse_level);
// Bytes of the dense FP64 preprocessing (Pi, Pi^-1, the C_i^-1, B dense): for the memory check.
double dense_preprocessing_bytes(const BlockCounts& c, int classes);
// Throws InputError naming --level / --coarse-level for L0 > L, negative levels, or a problem whose
// dense preprocessing does not fit in this machine's memory.
void check_poisson_levels(PoissonGrid grid, int level, int coarse_level);

}  // namespace voxwave::poisson
