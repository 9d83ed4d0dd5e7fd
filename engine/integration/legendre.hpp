// Legendre polynomials and the 1D hierarchical functions built from them (seed 001):
// N_0 = (1 - s)/2, N_1 = (1 + s)/2, N_j = integral_{-1}^{s} L_{j-1} = (L_j - L_{j-2}) / (2j - 1), j >= 2.
// Written once for the CPU and CUDA (host_device.hpp); orders up to kMaxOrder.
#pragma once

#include "core/host_device.hpp"

namespace voxwave::integration {

inline constexpr int kMaxOrder = 10;

// L_0..L_n at s and their derivatives (three-term recurrences; exact for n <= kMaxOrder + 1).
template <class Real>
VOXWAVE_HD void legendre_values(int n, Real s, Real* l, Real* dl) {
    l[0] = Real(1);
    dl[0] = Real(0);
    if (n >= 1) {
        l[1] = s;
        dl[1] = Real(1);
    }
    for (int k = 2; k <= n; ++k) {
        l[k] = (Real(2 * k - 1) * s * l[k - 1] - Real(k - 1) * l[k - 2]) / Real(k);
        dl[k] = dl[k - 2] + Real(2 * k - 1) * l[k - 1];  // L'_k = L'_{k-2} + (2k - 1) L_{k-1}
    }
}

// The p + 1 hierarchical 1D functions N_0..N_p at s and their derivatives.
template <class Real>
VOXWAVE_HD void hierarchical_1d(int p, Real s, Real* n, Real* dn) {
    Real l[kMaxOrder + 2], dl[kMaxOrder + 2];
    legendre_values(p, s, l, dl);
    n[0] = Real(0.5) * (Real(1) - s);
    dn[0] = Real(-0.5);
    n[1] = Real(0.5) * (Real(1) + s);
    dn[1] = Real(0.5);
    for (int j = 2; j <= p; ++j) {
        n[j] = (l[j] - l[j - 2]) / Real(2 * j - 1);
        dn[j] = l[j - 1];
    }
}

}  // namespace voxwave::integration
