// The process grid of a distributed run: MPI ranks along x, y and z of the model, as the user
// writes it ("auto" or PXxPYxPZ). Here, below the distributed layer, so that cluster jobs (which
// write the mpirun line) and the GUI parse and check it as `voxwave-cli run` does.
#pragma once

#include <array>
#include <string>

namespace voxwave {

// Ranks along x, y and z. {0, 0, 0}: choose automatically.
struct ProcessGrid {
    std::array<int, 3> ranks{0, 0, 0};
    bool automatic() const { return ranks[0] == 0; }
    int count() const { return ranks[0] * ranks[1] * ranks[2]; }
    bool operator==(const ProcessGrid&) const = default;
};
// "auto", or "PXxPYxPZ" (ranks along x, y and z of the model, e.g. 1x2x2); InputError naming
// `field` otherwise.
ProcessGrid parse_process_grid(const std::string& s, const std::string& field);
std::string to_string(const ProcessGrid& g);

}  // namespace voxwave
