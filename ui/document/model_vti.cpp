#include "document/model_vti.hpp"

#include <vtkCellData.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkNew.h>
#include <vtkStringArray.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLImageDataWriter.h>

#include <cstring>

#include "core/atomic_file.hpp"
#include "core/errors.hpp"

namespace voxwave::ui {

void write_model_vti(const std::string& path, const VoxelGrid& model, const std::vector<Material>& materials) {
    if (model.ids.size() != model.element_count())
        throw RuntimeError("write_model_vti: " + std::to_string(model.ids.size()) + " ids for " +
                           std::to_string(model.element_count()) + " elements");
    vtkNew<vtkImageData> image;
    // Elements are cells: n + 1 points per axis, the grid's corners.
    image->SetDimensions(model.n[0] + 1, model.n[1] + 1, model.n[2] + 1);
    image->SetSpacing(model.spacing, model.spacing, model.spacing);
    image->SetOrigin(model.origin[0], model.origin[1], model.origin[2]);
    vtkNew<vtkUnsignedCharArray> ids;
    ids->SetName("material_id");
    ids->SetNumberOfValues(vtkIdType(model.ids.size()));
    // VTK's cell order is x fastest, then y, then z: the engine's element order.
    if (!model.ids.empty()) std::memcpy(ids->GetPointer(0), model.ids.data(), model.ids.size());
    image->GetCellData()->AddArray(ids);
    image->GetCellData()->SetActiveScalars("material_id");
    vtkNew<vtkStringArray> names;
    names->SetName("material_names");
    for (const Material& m : materials) names->InsertNextValue(m.name);
    image->GetFieldData()->AddArray(names);

    write_file_atomically(path, [&](const std::string& temp) {
        vtkNew<vtkXMLImageDataWriter> writer;
        writer->SetFileName(temp.c_str());
        writer->SetInputData(image);
        writer->SetDataModeToAppended();
        writer->SetCompressorTypeToZLib();
        if (writer->Write() != 1) throw InputError(path, "", "cannot write the VTK image file");
    });
}

}  // namespace voxwave::ui
