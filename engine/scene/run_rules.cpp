#include "scene/run_rules.hpp"

#include <algorithm>
#include <cmath>

#include "core/errors.hpp"
#include "core/format_number.hpp"

namespace voxwave {

double pml_default_frequency(const std::vector<Source>& sources) {
    double f = 0;
    for (const Source& s : sources) {
        const Wavelet& w = s.wavelet;
        if (w.type == WaveletType::Ricker || w.type == WaveletType::ToneBurst)
            f = std::max(f, w.frequency);
        else if (w.type == WaveletType::Bandpass)
            f = std::max(f, std::sqrt(w.f_low * w.f_high));
    }
    return f;
}

void check_tcovfem_stages(std::int64_t stages, const std::string& file, const std::string& field) {
    if (!tcovfem_stages_allowed(stages))
        throw InputError(file, field,
                         "must be between " + std::to_string(kTcovfemMinStages) + " and " +
                             std::to_string(kTcovfemMaxStages) + " (got " + std::to_string(stages) + ")");
}

void check_sem_order(std::int64_t order, const std::string& file, const std::string& field) {
    if (!sem_order_allowed(order))
        throw InputError(file, field,
                         "must be between " + std::to_string(kSemMinOrder) + " and " + std::to_string(kSemMaxOrder) +
                             " (got " + std::to_string(order) + ")");
}

void check_precision(Method method, Precision precision, const std::string& file, const std::string& field) {
    if (!precision_allowed(method, precision))
        throw InputError(file, field,
                         std::string(to_string(method)) +
                             " computes in INT8 digits and FP64; use precision fp64 (got " + to_string(precision) +
                             ")");
}

void check_spacing(double spacing, const std::string& file, const std::string& field) {
    if (!std::isfinite(spacing)) throw InputError(file, field, "must be a finite number");
    if (spacing <= 0) throw InputError(file, field, "must be > 0 (got " + format_number(spacing) + ")");
    if (!spacing_allowed(spacing))
        throw InputError(file, field,
                         "must be between " + format_number(kMinSpacing) + " and " + format_number(kMaxSpacing) +
                             " m (got " + format_number(spacing) + ")");
}

}  // namespace voxwave
