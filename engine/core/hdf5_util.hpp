// Small RAII layer over the serial HDF5 C API, for the engine's file readers and writers.
//
// Every failure is an InputError naming the file (File::label()) and the dataset or attribute,
// e.g. "out.h5: /traces/time: missing dataset", so a truncated or foreign file gives one
// readable line instead of the library's own error stack (which is switched off).
// Internal to the engine: public headers never include <hdf5.h>.
#pragma once

#include <hdf5.h>

#include <cstdint>
#include <string>
#include <vector>

namespace voxwave::h5 {

// Switches off HDF5's automatic error printing (our messages replace it).
void silence_library_errors();

// Owns one HDF5 identifier and releases it with the matching H5?close on scope exit.
class Id {
public:
    using Closer = herr_t (*)(hid_t);
    Id() = default;
    Id(hid_t id, Closer closer) : id_(id), closer_(closer) {}
    ~Id() { reset(); }
    Id(Id&& o) noexcept : id_(o.id_), closer_(o.closer_) { o.id_ = -1; }
    Id& operator=(Id&& o) noexcept;
    Id(const Id&) = delete;
    Id& operator=(const Id&) = delete;

    hid_t get() const noexcept { return id_; }
    bool valid() const noexcept { return id_ >= 0; }
    // Closes now and reports whether the library succeeded (a failed close of a file being
    // written means lost data).
    bool close();

private:
    void reset() noexcept;
    hid_t id_ = -1;
    Closer closer_ = nullptr;
};

class File {
public:
    // Creates (truncating) `path`; `label` is the name used in messages (the user's file name
    // when `path` is an atomic-write temporary).
    static File create(const std::string& path, const std::string& label);
    // Opens read-only. Missing, unreadable, foreign or truncated files throw InputError.
    static File open_read(const std::string& path);

    hid_t id() const noexcept { return file_.get(); }
    const std::string& label() const noexcept { return label_; }
    // Flushes and closes; throws InputError(label, "", "cannot write ...") on failure.
    void close();

    // Datasets. Names are absolute paths ("/traces/time"); missing groups are created.
    // Dimensions may be zero.
    void write_doubles(const std::string& name, const std::vector<hsize_t>& dims, const double* data);
    void write_uint8(const std::string& name, const std::vector<hsize_t>& dims, const std::uint8_t* data);
    // Variable-length UTF-8 strings (what h5py itself writes for str), 1-D.
    void write_strings(const std::string& name, const std::vector<std::string>& values);

    // Attributes on `object` ("/" for the root group, or a dataset/group path).
    void write_attribute(const std::string& object, const std::string& name, double value);
    void write_attribute(const std::string& object, const std::string& name, std::int32_t value);
    void write_attribute(const std::string& object, const std::string& name, std::int64_t value);
    void write_attribute(const std::string& object, const std::string& name, const std::string& value);
    void write_attribute(const std::string& object, const std::string& name, const std::vector<double>& values);
    void write_attribute(const std::string& object, const std::string& name, const std::vector<std::int64_t>& values);
    // A fixed-length ASCII string (readers that size their buffer from the type, as VTK's do).
    void write_fixed_string_attribute(const std::string& object, const std::string& name, const std::string& value);

    bool has_dataset(const std::string& name) const;
    // On the root, a dataset or a group.
    bool has_attribute(const std::string& object, const std::string& name) const;
    // Shape of a dataset; throws for a missing one.
    std::vector<hsize_t> dims(const std::string& name) const;

    // Readers convert from any floating or integer file type; `dims` receives the shape.
    std::vector<double> read_doubles(const std::string& name, std::vector<hsize_t>* dims = nullptr) const;
    // Any integer file type whose values all lie in 0..255.
    std::vector<std::uint8_t> read_uint8(const std::string& name, std::vector<hsize_t>* dims = nullptr) const;
    // Variable- or fixed-length strings, 1-D.
    std::vector<std::string> read_strings(const std::string& name) const;

    double read_double_attribute(const std::string& object, const std::string& name) const;
    std::int64_t read_int_attribute(const std::string& object, const std::string& name) const;
    std::string read_string_attribute(const std::string& object, const std::string& name) const;
    std::vector<double> read_double_array_attribute(const std::string& object, const std::string& name) const;

private:
    File(Id file, std::string label) : file_(std::move(file)), label_(std::move(label)) {}
    // H5I_DATASET, H5I_GROUP...; H5I_BADID when there is no such object.
    H5I_type_t object_type(const std::string& name) const;
    Id open_dataset(const std::string& name) const;
    Id open_attribute(const std::string& object, const std::string& name) const;
    Id create_dataset(const std::string& name, hid_t file_type, const std::vector<hsize_t>& dims);
    void write_scalar_attribute(const std::string& object, const std::string& name, hid_t file_type, hid_t mem_type,
                                const void* value);
    void write_array_attribute(const std::string& object, const std::string& name, hid_t file_type, hid_t mem_type,
                               const void* values, std::size_t count);

    Id file_;
    std::string label_;
};

// "/model/material_ids attribute 'spacing'": the FIELD part of an attribute's messages.
std::string attribute_field(const std::string& object, const std::string& name);

}  // namespace voxwave::h5
