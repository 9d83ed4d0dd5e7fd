// The integration lab's front-end API (what the CLI and the GUI panel call): parameters are
// validated with the option's name, the first element matrix is the CPU oracle's, progress
// counts elements and can cancel, a sweep gives one result per order.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/errors.hpp"
#include "integration/element_batch.hpp"
#include "integration/integrate_cpu.hpp"
#include "integration/integration_lab.hpp"

using namespace voxwave::integration;

namespace {
IntegrationParams small_cpu_run() {
    IntegrationParams p;
    p.element = ElementType::Hexahedron;
    p.order = 2;
    p.elements = 5;
    p.backend = voxwave::Backend::Cpu;
    p.fp64 = true;
    p.cpu_threads = 1;
    p.reference_elements = 2;
    return p;
}
}  // namespace

TEST(IntegrationLab, FirstElementIsTheOraclesMatrix) {
    const IntegrationParams p = small_cpu_run();
    const IntegrationResult r = run_integration_lab(p);
    ASSERT_EQ(r.ndofs, 60);
    EXPECT_EQ(r.points, 27);
    ASSERT_EQ(r.first_element.size(), 60u * 60u);
    const double lambda = p.young * p.poisson / ((1 + p.poisson) * (1 - 2 * p.poisson));
    const double mu = p.young / (2 * (1 + p.poisson));
    const ReferenceTables t = make_reference_tables(ElementType::Hexahedron, 2);
    const ElementBatch b = make_element_batch(ElementType::Hexahedron, 1, 0.01, p.distortion);
    std::vector<double> k(60 * 60);
    integrate_element_plain(t, elasticity_coefficients(lambda, mu), b.element(0), k.data());
    double top = 0, err = 0;
    for (std::size_t i = 0; i < k.size(); ++i) {
        top = std::max(top, std::abs(k[i]));
        err = std::max(err, std::abs(k[i] - r.first_element[i]));
    }
    EXPECT_LT(err, 1e-14 * top);
    EXPECT_GT(r.flops_per_element, 0);
    EXPECT_GT(r.cpu_core_s_per_element, 0);
}

TEST(IntegrationLab, ProgressCountsElementsAndCancels) {
    IntegrationParams p = small_cpu_run();
    p.elements = 3000;  // three CPU chunks of at most 1024
    p.order = 1;
    p.reference_elements = 0;
    std::vector<std::int64_t> seen;
    run_integration_lab(p, [&](std::int64_t done, std::int64_t total) {
        EXPECT_EQ(total, 3000);
        seen.push_back(done);
        return true;
    });
    ASSERT_GE(seen.size(), 4u);
    EXPECT_EQ(seen.front(), 0);
    EXPECT_EQ(seen.back(), 3000);
    EXPECT_THROW(run_integration_lab(p, [](std::int64_t done, std::int64_t) { return done < 1000; }),
                 voxwave::Cancelled);
}

TEST(IntegrationLab, BadParametersNameTheOption) {
    auto field_of = [](IntegrationParams p) {
        try {
            run_integration_lab(p);
        } catch (const voxwave::InputError& e) {
            return e.field();
        }
        return std::string("no error");
    };
    IntegrationParams p = small_cpu_run();
    p.order = 11;
    EXPECT_EQ(field_of(p), "--order");
    p = small_cpu_run();
    p.element = ElementType::Prism;
    p.order = 1;
    EXPECT_EQ(field_of(p), "--order");
    p = small_cpu_run();
    p.element = ElementType::Prism;
    p.order = 3;
    p.variant = Variant::SumFact;
    EXPECT_EQ(field_of(p), "--variant");
    p = small_cpu_run();
    p.elements = 0;
    EXPECT_EQ(field_of(p), "--elements");
    p = small_cpu_run();
    p.poisson = 0.5;
    EXPECT_EQ(field_of(p), "material");
}

TEST(IntegrationLab, SweepGivesOneResultPerOrder) {
    IntegrationParams p = small_cpu_run();
    p.element = ElementType::Prism;
    p.problem = Problem::Laplace;
    int calls = 0;
    const auto rs = run_integration_sweep(p, {2, 3}, [&](std::int64_t, std::int64_t total) {
        EXPECT_EQ(total, 2);
        ++calls;
        return true;
    });
    ASSERT_EQ(rs.size(), 2u);
    EXPECT_EQ(rs[0].ndofs, 18);
    EXPECT_EQ(rs[1].ndofs, 40);
    EXPECT_EQ(calls, 2);
}
