// Every CUDA element-integration variant against the CPU oracle (issue 7): FP64 to 1e-12 and
// FP32 to 1e-5 of the largest entry, for hexahedra and prisms, both Jacobian modes. Labelled
// gpu; without a device every test reports itself skipped.
#include <gtest/gtest.h>
#include <omp.h>
#include <cstdlib>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "integration/element_batch.hpp"
#include "integration/integrate_cpu.hpp"
#include "integration/integrate_cuda.hpp"
#include "require_cuda.hpp"

using namespace voxwave::integration;

namespace {

struct Case {
    ElementType type;
    int order;
    ProblemCoefficients coefficients;
    std::int64_t elements;
};

// Largest |GPU - CPU| over all entries of all elements, relative to the largest |CPU| entry.
double relative_error(const Case& c, const ReferenceTables& t, const ElementBatch& b, const std::vector<double>& cpu,
                      Variant v, JacobianMode j, bool fp64) {
    CudaIntegrationRequest r;
    r.tables = &t;
    r.coefficients = &c.coefficients;
    r.batch = &b;
    r.variant = v;
    r.jacobian = j;
    r.fp64 = fp64;
    r.repetitions = 1;
    r.keep_matrices = c.elements;
    std::vector<double> gpu;
    integrate_batch_cuda(r, gpu);
    EXPECT_EQ(gpu.size(), cpu.size());
    double top = 0, err = 0;
    for (std::size_t i = 0; i < cpu.size() && i < gpu.size(); ++i) {
        top = std::max(top, std::abs(cpu[i]));
        err = std::max(err, std::abs(cpu[i] - gpu[i]));
    }
    return err / top;
}

// The oracle is the CPU's plain algorithm in FP64 (sum factorisation equals it to 1e-13, see
// tests/engine/test_integration_elements.cpp), computed once per case.
void check_all(const Case& c, const std::vector<Variant>& variants) {
    const ReferenceTables t = make_reference_tables(c.type, c.order);
    const ElementBatch b = make_element_batch(c.type, c.elements, 0.01, 0.15);
    std::vector<double> cpu;
    integrate_batch_cpu<double>(t, c.coefficients, b, CpuAlgorithm::Plain, omp_get_max_threads(), cpu);
    for (Variant v : variants)
        for (JacobianMode j : {JacobianMode::Precomputed, JacobianMode::Computed})
            for (bool fp64 : {true, false}) {
                const double e = relative_error(c, t, b, cpu, v, j, fp64);
                EXPECT_LT(e, fp64 ? 1e-12 : 1e-5)
                    << (c.type == ElementType::Hexahedron ? "hex" : "prism") << " p = " << c.order << " "
                    << to_string(c.coefficients.problem) << " variant " << int(v) << (fp64 ? " fp64" : " fp32")
                    << (j == JacobianMode::Computed ? " computed" : " precomputed") << ": error " << e;
            }
}

const ProblemCoefficients kElastic = elasticity_coefficients(1.15e11, 7.7e10);
const double kVelocity[3] = {1.0, -2.0, 0.5};
const std::vector<Variant> kPlainVariants = {Variant::Ai, Variant::Aii, Variant::Reg, Variant::Shm};

}  // namespace

TEST(IntegrationCuda, HexElasticityLowOrdersEveryVariant) {
    REQUIRE_CUDA();
    for (int p : {1, 2, 3})
        check_all({ElementType::Hexahedron, p, kElastic, 37},
                  {Variant::Ai, Variant::Aii, Variant::Reg, Variant::Shm, Variant::SumFact});
}

TEST(IntegrationCuda, HexElasticityOrderFiveEveryVariant) {
    REQUIRE_CUDA();
    check_all({ElementType::Hexahedron, 5, kElastic, 5},
              {Variant::Ai, Variant::Aii, Variant::Reg, Variant::Shm, Variant::SumFact});
}

TEST(IntegrationCuda, HexHighOrdersSharedMemoryAndSumFactorisation) {
    REQUIRE_CUDA();
    check_all({ElementType::Hexahedron, 8, kElastic, 3}, {Variant::Reg, Variant::Shm});
    check_all({ElementType::Hexahedron, 6, kElastic, 3}, {Variant::SumFact});
    check_all({ElementType::Hexahedron, 10, kElastic, 2}, {Variant::Shm});
}

// The unrolled sum-factorisation kernel at the orders the lower tests do not reach, in both of
// its layouts: K in shared memory (p = 4 with six equation blocks per pass, p = 7 FP32) and K in
// global memory (p = 7 FP64, p = 8 FP32).
TEST(IntegrationCuda, HexElasticitySumFactorisationHighOrders) {
    REQUIRE_CUDA();
    check_all({ElementType::Hexahedron, 4, kElastic, 7}, {Variant::SumFact});
    check_all({ElementType::Hexahedron, 7, kElastic, 2}, {Variant::SumFact});
    const Case c{ElementType::Hexahedron, 8, kElastic, 2};
    const ReferenceTables t = make_reference_tables(c.type, c.order);
    const ElementBatch b = make_element_batch(c.type, c.elements, 0.01, 0.15);
    std::vector<double> cpu;
    integrate_batch_cpu<double>(t, c.coefficients, b, CpuAlgorithm::Plain, omp_get_max_threads(), cpu);
    EXPECT_LT(relative_error(c, t, b, cpu, Variant::SumFact, JacobianMode::Precomputed, false), 1e-5);
}

// The unrolled sum-factorisation designs (VOXWAVE_SUMFACT_DESIGN; the default picks one per
// order) at the orders where each is compiled, and the design that ran is the one asked for.
// Where the asked one is not compiled or does not fit (p = 2 has only the block design, p = 6 in
// FP64 has no room for the pair design), the default runs, and must be right too.
TEST(IntegrationCuda, SumFactorisationPairStreamAndBlockDesigns) {
    REQUIRE_CUDA();
    struct Asked {
        const char* design;
        int order;
        const char* reported;  // how tm.sumfact_design begins
    };
    for (const Asked& d : {Asked{"pair", 4, "pair"}, Asked{"block", 4, "unrolled"}, Asked{"stream", 7, "stream"}}) {
        setenv("VOXWAVE_SUMFACT_DESIGN", d.design, 1);
        SCOPED_TRACE(std::string("design ") + d.design);
        for (int p : {2, 3, 4, 5, 6}) check_all({ElementType::Hexahedron, p, kElastic, 3}, {Variant::SumFact});
        if (std::string(d.design) != "pair")  // p = 7, 8: stream or block
            for (int p : {7, 8}) check_all({ElementType::Hexahedron, p, kElastic, 2}, {Variant::SumFact});
        const ReferenceTables t = make_reference_tables(ElementType::Hexahedron, d.order);
        const ElementBatch b = make_element_batch(ElementType::Hexahedron, 2, 0.01, 0.15);
        CudaIntegrationRequest r;
        r.tables = &t;
        r.coefficients = &kElastic;
        r.batch = &b;
        r.variant = Variant::SumFact;
        std::vector<double> k;
        const CudaIntegrationTiming tm = integrate_batch_cuda(r, k);
        EXPECT_EQ(tm.sumfact_design.rfind(d.reported, 0), 0u) << tm.sumfact_design;
    }
    unsetenv("VOXWAVE_SUMFACT_DESIGN");
}

// p = 9 and 10: only the stream design holds them (13 and 14 points per direction).
TEST(IntegrationCuda, HexElasticitySumFactorisationOrdersNineAndTen) {
    REQUIRE_CUDA();
    for (int p : {9, 10}) check_all({ElementType::Hexahedron, p, kElastic, 1}, {Variant::SumFact});
}

TEST(IntegrationCuda, HexLaplaceAndConvectionDiffusion) {
    REQUIRE_CUDA();
    const std::vector<Variant> all = {Variant::Ai, Variant::Aii, Variant::Reg, Variant::Shm, Variant::SumFact};
    check_all({ElementType::Hexahedron, 4, laplace_coefficients(2.0), 9}, all);
    check_all({ElementType::Hexahedron, 4, convection_diffusion_coefficients(0.1, kVelocity, 2.0), 9}, all);
}

// Every register block, tiling and packing of the shm kernel (the defaults pick one per order):
// VOXWAVE_SHM_BLOCK / _TILE / _POINTS / _PACK are read once per run (each integrate_batch_cuda call).
// p = 4 has one tile per side with 4 x 4 blocks (the diagonal-tile path), p = 6 several (off-
// diagonal tiles); rect tiles put all test shapes in one row of tiles (4 x 2 at p = 4: one
// 52 x 50 tile, not diagonal); convection-diffusion uses the value on both sides.
TEST(IntegrationCuda, ShmEveryRegisterBlockAndTiling) {
    REQUIRE_CUDA();
    for (const char* block : {"2x2", "4x2", "4x4"})
        for (const std::string tile : {"fit", "max", "rect"}) {
            setenv("VOXWAVE_SHM_BLOCK", block, 1);
            setenv("VOXWAVE_SHM_TILE", tile.c_str(), 1);
            setenv("VOXWAVE_SHM_POINTS", tile == "fit" ? "64" : (tile == "max" ? "16" : "32"), 1);
            // Several tiles per thread block where they fit: 5 elements leave groups past the last tile.
            setenv("VOXWAVE_SHM_PACK", tile == "fit" ? "3" : (tile == "max" ? "1" : "2"), 1);
            SCOPED_TRACE(std::string("block ") + block + ", tile " + tile);
            check_all({ElementType::Hexahedron, 4, kElastic, 5}, {Variant::Shm});
            check_all({ElementType::Hexahedron, 6, kElastic, 2}, {Variant::Shm});
            check_all({ElementType::Hexahedron, 3, convection_diffusion_coefficients(0.1, kVelocity, 2.0), 5},
                      {Variant::Shm});
            check_all({ElementType::Prism, 4, laplace_coefficients(1.0), 5}, {Variant::Shm});
        }
    // 4 x 2 tiles beyond 256 threads (p = 4: one 52 x 52 tile, 338 threads).
    setenv("VOXWAVE_SHM_BLOCK", "4x2", 1);
    setenv("VOXWAVE_SHM_TILE", "fit", 1);
    setenv("VOXWAVE_SHM_PACK", "1", 1);
    setenv("VOXWAVE_SHM_SIDE", "64", 1);
    setenv("VOXWAVE_SHM_POINTS", "128", 1);
    check_all({ElementType::Hexahedron, 4, kElastic, 5}, {Variant::Shm});
    check_all({ElementType::Hexahedron, 6, kElastic, 2}, {Variant::Shm});
    for (const char* v :
         {"VOXWAVE_SHM_BLOCK", "VOXWAVE_SHM_TILE", "VOXWAVE_SHM_POINTS", "VOXWAVE_SHM_PACK", "VOXWAVE_SHM_SIDE"})
        unsetenv(v);
    // The defaults at the orders whose settings differ (p = 4: one 52 x 52 tile, 128 points;
    // p = 5 and 6: rectangular 76 x 38 and 108 x 36 tiles, 128 and 64 points).
    for (int p : {4, 5, 6}) check_all({ElementType::Hexahedron, p, kElastic, 3}, {Variant::Shm});
}

TEST(IntegrationCuda, PrismsEveryProblemEveryVariant) {
    REQUIRE_CUDA();
    for (int p : {2, 4}) check_all({ElementType::Prism, p, kElastic, 11}, kPlainVariants);
    check_all({ElementType::Prism, 7, kElastic, 2}, {Variant::Reg, Variant::Shm});
    check_all({ElementType::Prism, 3, laplace_coefficients(1.0), 11}, kPlainVariants);
    check_all({ElementType::Prism, 3, convection_diffusion_coefficients(0.1, kVelocity, 2.0), 11}, kPlainVariants);
}

TEST(IntegrationCuda, SumFactorisationRefusesWhatDoesNotFitSharedMemory) {
    REQUIRE_CUDA();
    // Laplace has no unrolled design; the general one holds at most 12 points per direction.
    const ReferenceTables t = make_reference_tables(ElementType::Hexahedron, 10);
    const ElementBatch b = make_element_batch(ElementType::Hexahedron, 1, 0.01, 0.15);
    const ProblemCoefficients laplace = laplace_coefficients(1.0);
    CudaIntegrationRequest r;
    r.tables = &t;
    r.coefficients = &laplace;
    r.batch = &b;
    r.variant = Variant::SumFact;
    r.fp64 = true;
    std::vector<double> k;
    EXPECT_THROW(integrate_batch_cuda(r, k), voxwave::InputError);
}
