// The voxel model as VTK ImageData (.vti, VTK's XML format) for ParaView and other VTK tools:
// one cell per element with the cell array "material_id" (uint8, 0 = void, v = material v) and
// the field array "material_names" (the names of ids 1, 2, ...). Written through VTK's IO, which
// the engine does not link (docs/architecture.md#layers).
#pragma once

#include <string>
#include <vector>

#include "model/material.hpp"
#include "model/voxel_grid.hpp"

namespace voxwave::ui {

// Atomic; throws InputError(path, "", reason) when the file cannot be written.
void write_model_vti(const std::string& path, const VoxelGrid& model, const std::vector<Material>& materials);

}  // namespace voxwave::ui
