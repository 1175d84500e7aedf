// mocap._mocap: the library for Python (docs/python.md). Conversion only:
// paths and numbers in, numpy arrays, bytes and strings out, library errors
// raised as mocap.Error. Every step is one library call, the ones the CLI's
// verbs make (tools/cmd_*.cc); the GIL is released while the library works.
#include <mocap/compress/clip_decoder.h>
#include <mocap/compress/compress_clip.h>
#include <mocap/compress/compress_report.h>
#include <mocap/compress/compressed_clip.h>
#include <mocap/compress/jitter.h>
#include <mocap/compress/motion_error.h>
#include <mocap/core/fk.h>
#include <mocap/core/foot_contacts.h>
#include <mocap/eyes/eye_body.h>
#include <mocap/eyes/eyes.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_to_asf.h>
#include <mocap/io/capture.h>
#include <mocap/rig/gltf.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/skin/skin_frames.h>
#include <mocap/skin/skinner.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace py = pybind11;

namespace mocap::python {
namespace {

// A library error on its way to Python (the translator raises mocap.Error).
struct LibraryError {
  Error error;
};

PyObject* error_type = nullptr;  // mocap.Error, made once at import

template <class T>
T take(Result<T>&& result) {
  if (!result) throw LibraryError{std::move(result.error())};
  return std::move(*result);
}
void check(const Result<void>& result) {
  if (!result) throw LibraryError{result.error()};
}

// An array over `data` (C order) that keeps `owner` alive; read-only, since
// the clip's arrays must not change under the library's other views of them.
template <class T>
py::array_t<T> view(const T* data, std::vector<py::ssize_t> shape, py::handle owner) {
  py::array_t<T> array(std::move(shape), data, owner);
  py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return array;
}

// An array that owns `values` (moved to the heap, freed with the array): no copy.
template <class T, class Scalar = T>
py::array_t<Scalar> owned(std::vector<T>&& values, std::vector<py::ssize_t> shape) {
  static_assert(sizeof(T) % sizeof(Scalar) == 0 && alignof(T) % alignof(Scalar) == 0);
  auto* heap = new std::vector<T>(std::move(values));
  py::capsule free(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<Scalar>(std::move(shape), reinterpret_cast<const Scalar*>(heap->data()), free);
}
static_assert(sizeof(Eigen::Vector3d) == 3 * sizeof(double) && sizeof(Eigen::Quaterniond) == 4 * sizeof(double));

double length_unit(const std::string& units) {
  const auto metres = parse_length_unit(units);
  if (!metres)
    throw py::value_error("units: expected m, cm, mm, in, ft or a positive number of metres, found '" + units + "'");
  return *metres;
}

std::string path_text(const std::filesystem::path& path) {
  return path.string();
}

Capture read_clip_file(const std::filesystem::path& first, const std::optional<std::filesystem::path>& amc, double fps,
                       const std::string& units) {
  const std::string path = path_text(first);
  if (!amc && !is_bvh_path(path))
    throw py::value_error(path + ": expected an AMC motion after the ASF skeleton (or a .bvh file alone)");
  const double metres = length_unit(units);
  Result<Capture> clip = fail("", 0, "");
  {
    py::gil_scoped_release release;
    clip = amc ? read_capture(path, path_text(*amc), fps) : read_bvh_capture(path, metres);
  }
  return take(std::move(clip));
}

// `other` must hold channels of `clip`'s skeleton before the library reads
// them as such (as `mocap eval` checks a second BVH).
void check_same_joints(const Capture& clip, const Capture& other) {
  if (other.motion.channel_count == clip.skeleton.channel_count && other.bone_names == clip.bone_names) return;
  throw LibraryError{
      Error{other.amc_path, 0,
            "not a motion of " + clip.asf_path + "'s joints (" + std::to_string(other.skeleton.bones.size()) +
                " joints, " + std::to_string(other.motion.channel_count) + " channels; expected " +
                std::to_string(clip.skeleton.bones.size()) + ", " + std::to_string(clip.skeleton.channel_count) + ")"}};
}

py::bytes compress(const Capture& clip, double max_error, double max_velocity_error, double contact_error,
                   double contact_speed) {
  CompressRequest request;
  request.format = CompressFormat::kMkc;
  request.budget = KeyBudget::kMaxJointError;
  request.value = max_error;
  request.max_velocity_error_cm_s = max_velocity_error;
  request.max_contact_error_cm = contact_error;
  request.max_contact_speed_cm_s = contact_speed;
  request.time_decoder = false;
  Result<CompressReport> report = fail("", 0, "");
  {
    py::gil_scoped_release release;
    report = compress_clip(clip, request);
  }
  return py::bytes(take(std::move(report)).key_file);
}

// The clip's skeleton with `motion` decoded from a .mkc (bytes or a path).
Capture decompress(const Capture& clip, const py::object& data, const std::string& name) {
  Capture decoded{clip.asf_path, name, clip.skeleton, {}, clip.layout, clip.bone_names};
  Result<Motion> motion = fail("", 0, "");
  if (py::isinstance<py::bytes>(data)) {
    const std::string bytes = data.cast<std::string>();
    py::gil_scoped_release release;
    const std::span<const std::uint8_t> span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
    Result<CompressedClip> parsed = parse_compressed_clip(span, name);
    motion = parsed ? decode_motion(*parsed, clip.skeleton) : Result<Motion>(std::unexpected(parsed.error()));
  } else {
    decoded.amc_path = path_text(data.cast<std::filesystem::path>());
    py::gil_scoped_release release;
    motion = read_clip_motion(decoded.amc_path, clip.skeleton, clip.asf_path);
  }
  decoded.motion = take(std::move(motion));
  return decoded;
}

// `mocap eval --json`'s object (compress_report.h's eval_report_json).
std::string eval_json(const Capture& a, const Capture& b, double velocity_weight, double shell_radius_cm) {
  check_same_joints(a, b);
  const ErrorSettings settings{velocity_weight, shell_radius_cm};
  Result<MotionError> error = fail("", 0, "");
  Result<JitterError> jitter = fail("", 0, "");
  {
    py::gil_scoped_release release;
    error = measure_error(a.skeleton, a.motion, b.motion, settings.options());
    if (error) jitter = measure_jitter(a.skeleton, a.motion, b.motion);
  }
  // As the CLI names them: the other motion's file, the library's message.
  if (!error) throw LibraryError{Error{b.amc_path, 0, error.error().message}};
  if (!jitter) throw LibraryError{Error{b.amc_path, 0, jitter.error().message}};
  const EvalReport report{*error, settings, report_names(a.skeleton, a.motion), false, 0.0, *jitter};
  return eval_report_json(report);
}

py::dict foot_contacts(const Capture& clip) {
  Result<ClipFootContacts> found = fail("", 0, "");
  {
    py::gil_scoped_release release;
    found = clip_foot_contacts(clip.skeleton, clip.motion, clip.amc_path);
  }
  const ClipFootContacts contacts = take(std::move(found));
  py::list feet;
  for (std::size_t s = 0; s < 2; ++s) {
    const Foot& foot = contacts.feet[s];
    std::vector<int> intervals;
    for (const FootContact& c : contacts.contacts[s].contacts) intervals.insert(intervals.end(), {c.first, c.last});
    const auto count = static_cast<py::ssize_t>(intervals.size() / 2);
    py::dict d;
    d["foot"] = foot.name;
    d["heel"] = clip.bone_names[static_cast<std::size_t>(foot.heel)];
    d["ball"] = clip.bone_names[static_cast<std::size_t>(foot.ball)];
    d["toe"] = clip.bone_names[static_cast<std::size_t>(foot.toe)];
    d["floor_m"] = contacts.contacts[s].floor_m;
    d["contacts"] = owned(std::move(intervals), {count, 2});
    feet.append(d);
  }
  py::dict result;
  result["floor_m"] = contacts.floor_m;
  result["feet"] = feet;
  return result;
}

void write_amc_file(const Capture& clip, const std::filesystem::path& path) {
  if (clip.skeleton.offsets_in_parent_frame)
    throw LibraryError{Error{clip.amc_path, 0,
                             "a BVH skeleton's motion is written as BVH (write_bvh) or as a new ASF and AMC "
                             "(write_asf_amc); an AMC needs an ASF skeleton"}};
  py::gil_scoped_release release;
  check(write_amc(clip.motion, clip.skeleton, path_text(path), clip.layout));
}

// As `mocap convert -o x.asf x.amc` (io/bvh_to_asf.h): both files or neither.
void write_asf_amc(const Capture& clip, const std::filesystem::path& asf, const std::filesystem::path& amc) {
  py::gil_scoped_release release;
  AsfFromBvh converted = take(bvh_to_asf(clip.skeleton, clip.motion));
  converted.asf.name = std::filesystem::path(clip.amc_path).stem().string();
  const std::vector<OutputFile> files{{path_text(asf), format_asf(converted.asf)},
                                      {path_text(amc), format_amc(converted.motion, converted.skeleton)}};
  check(write_files_atomically(files));
}

void write_glb_file(const Capture& clip, const std::filesystem::path& path) {
  py::gil_scoped_release release;
  const GltfDocument document =
      take(gltf_from_motion(clip.skeleton, clip.motion, std::filesystem::path(clip.amc_path).stem().string()));
  check(write_glb(path_text(path), document));
}

// Procedural eyes (eyes/eye_body.h's EyeTimeline and eye_track), on a
// clip's timeline (its head leading the eyes) or alone, as `mocap eyes -o
// track.csv`: the rate is the clip's or 40 Hz, the length the clip's or
// 10 s, unless given. Columns as its CSV: time; per eye x, y, openness,
// pupil; brow.
py::dict eye_track_arrays(const Capture* clip, std::optional<double> rate, std::optional<double> duration,
                          std::uint64_t seed, const std::string& model, const std::string& mode,
                          std::array<double, 3> pad, std::optional<std::array<double, 3>> target) {
  if (model != "design" && model != "physio")
    throw py::value_error("model: expected 'design' or 'physio', found '" + model + "'");
  if (mode != "free" && mode != "listen" && mode != "speak" && mode != "think")
    throw py::value_error("mode: expected 'free', 'listen', 'speak' or 'think', found '" + mode + "'");
  for (const double v : pad)
    if (!(v >= -1.0 && v <= 1.0)) throw py::value_error("pad: expected pleasure, arousal, dominance each in [-1, 1]");
  EyeTimelineOptions options;
  options.params.model = model == "physio" ? EyeModel::kPhysiological : EyeModel::kDesign;
  options.params.mode = mode == "listen"  ? ConversationMode::kListening
                        : mode == "speak" ? ConversationMode::kSpeaking
                        : mode == "think" ? ConversationMode::kThinking
                                          : ConversationMode::kFree;
  options.params.emotion = {pad[0], pad[1], pad[2]};
  options.seed = seed;
  std::optional<HeadTrack> head;
  if (clip) {
    Result<HeadTrack> track = head_track(clip->skeleton, clip->motion);
    if (!track) throw LibraryError{Error{clip->amc_path, 0, track.error().message}};
    head = std::move(*track);
    options.head = &*head;
  }
  if (target) options.world_target = Eigen::Vector3d((*target)[0], (*target)[1], (*target)[2]);
  check(options.validate());
  const double fps = rate.value_or(clip ? clip->motion.fps : 40.0);
  const double seconds = duration.value_or(clip ? clip->motion.duration_seconds() : 10.0);
  if (!(fps > 0) || !(seconds >= 0)) throw py::value_error("rate and duration: expected rate > 0 and duration >= 0");
  std::vector<EyeFrame> frames;
  {
    py::gil_scoped_release release;
    EyeTimeline timeline(options);
    frames = eye_track(timeline, fps, seconds);
  }
  const auto n = static_cast<py::ssize_t>(frames.size());
  std::vector<double> time, left, right, brow;
  for (const EyeFrame& f : frames) {
    time.push_back(f.time_s);
    left.insert(left.end(), {f.left.x, f.left.y, f.left.openness, f.left.pupil});
    right.insert(right.end(), {f.right.x, f.right.y, f.right.openness, f.right.pupil});
    brow.push_back(f.brow);
  }
  py::dict track;
  track["time"] = owned(std::move(time), {n});
  track["left"] = owned(std::move(left), {n, 4});
  track["right"] = owned(std::move(right), {n, 4});
  track["brow"] = owned(std::move(brow), {n});
  return track;
}

py::ssize_t frames(const Capture& c) {
  return c.motion.frame_count();
}
py::ssize_t joints(const Capture& c) {
  return static_cast<py::ssize_t>(c.skeleton.bones.size());
}

// A mesh bound to a clip's skeleton (rig/mesh_bind.h), with the skeleton's
// joint names to refuse another's clip when skinning.
struct BoundMeshFile {
  BoundMesh bound;
  std::vector<std::string> joint_names;
  std::string mesh_path;
};

BoundMeshFile bind_mesh_file(const Capture& clip, const std::filesystem::path& mesh, const std::string& units,
                             const std::optional<std::filesystem::path>& bind_pose,
                             const std::optional<std::filesystem::path>& weights, const std::string& fit,
                             const std::string& weight_method, double yaw_radians) {
  if (fit != "embed" && fit != "height")
    throw py::value_error("fit: expected 'embed' or 'height', found '" + fit + "'");
  if (weight_method != "voxel" && weight_method != "heat" && weight_method != "distance")
    throw py::value_error("weight_method: expected 'voxel', 'heat' or 'distance', found '" + weight_method + "'");
  MeshBindOptions options;
  options.mesh_path = path_text(mesh);
  options.units = units;
  if (bind_pose) options.bind_pose_amc = path_text(*bind_pose);
  options.bind_pose_fps = clip.motion.fps;
  if (weights) options.weights_path = path_text(*weights);
  options.fit = fit == "height" ? BindFit::kHeight : BindFit::kEmbed;
  options.weight_method = weight_method == "distance" ? WeightMethod::kDistance
                          : weight_method == "heat"   ? WeightMethod::kHeat
                                                      : WeightMethod::kVoxel;
  options.yaw_radians = yaw_radians;
  check(options.validate());
  Result<BoundMesh> bound = fail("", 0, "");
  {
    py::gil_scoped_release release;
    bound = bind_mesh(clip.skeleton, options);
  }
  return {take(std::move(bound)), clip.bone_names, options.mesh_path};
}

// The mesh posed by `frames` (indices; all when none) of `clip`: skin_frames
// through a Skinner, each frame's positions copied out. (frames, vertices, 3)
// float32, metres.
py::array_t<float> skin(const Capture& clip, const BoundMeshFile& mesh, const std::string& method, int threads,
                        std::optional<std::vector<int>> frames) {
  if (mesh.joint_names != clip.bone_names)
    throw LibraryError{Error{clip.amc_path, 0, "not a motion of the skeleton " + mesh.mesh_path + " was bound to"}};
  if (method != "lbs" && method != "dqs")
    throw py::value_error("method: expected 'lbs' or 'dqs', found '" + method + "'");
  std::vector<int> picked;
  if (frames) {
    picked = std::move(*frames);
    for (const int f : picked)
      if (f < 0 || f >= clip.motion.frame_count())
        throw py::index_error("frames: " + std::to_string(f) + " is not a frame index of " + clip.amc_path + " (0 to " +
                              std::to_string(clip.motion.frame_count() - 1) + ")");
  } else {
    for (int f = 0; f < clip.motion.frame_count(); ++f) picked.push_back(f);
  }
  const std::size_t vertices = mesh.bound.mesh.positions.size();
  std::vector<Eigen::Vector3f> out(picked.size() * vertices);
  {
    py::gil_scoped_release release;
    Skinner skinner =
        take(Skinner::create(mesh.bound.mesh, mesh.bound.weights, clip.skeleton.bones.size(),
                             method == "dqs" ? SkinMethod::kDualQuaternion : SkinMethod::kLinear, threads));
    std::size_t next = 0;
    take(skin_frames(skinner, picked, pose_from_motion(clip.skeleton, clip.motion, mesh.bound.bind),
                     [&](int, const Skinner& posed) -> Result<void> {
                       std::copy(posed.positions().begin(), posed.positions().end(), out.begin() + next);
                       next += vertices;
                       return {};
                     }));
  }
  static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));
  return owned<Eigen::Vector3f, float>(
      std::move(out), {static_cast<py::ssize_t>(picked.size()), static_cast<py::ssize_t>(vertices), 3});
}

}  // namespace
}  // namespace mocap::python

PYBIND11_MODULE(_mocap, m) {
  using namespace mocap;
  using namespace mocap::python;
  m.doc() = "The mocap library's calls (C++); import mocap instead.";
  m.attr("__version__") = MOCAP_VERSION;

  error_type = PyErr_NewExceptionWithDoc("mocap.Error",
                                         "A bad input: the message is the library's 'file:line: what was expected'.",
                                         PyExc_ValueError, nullptr);
  m.attr("Error") = py::handle(error_type);  // the module's reference; error_type keeps its own
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const LibraryError& e) {
      py::object error = py::reinterpret_borrow<py::object>(error_type)(e.error.to_string());
      error.attr("file") = e.error.file;
      error.attr("line") = e.error.line;
      error.attr("message") = e.error.message;
      PyErr_SetObject(error_type, error.ptr());
    }
  });

  py::class_<Capture>(m, "Clip", "A skeleton and a motion of it, as read (io/capture.h's Capture).")
      .def_property_readonly(
          "fps", [](const Capture& c) { return c.motion.fps; }, "Frames per second.")
      .def_property_readonly(
          "frame_numbers",
          [](py::object self) {
            const Capture& c = self.cast<const Capture&>();
            return view(c.motion.frame_numbers.data(), {frames(c)}, self);
          },
          "The file's frame numbers (int32, one per frame; CMU clips start at 1). A read-only view.")
      .def_property_readonly(
          "channels",
          [](py::object self) {
            const Capture& c = self.cast<const Capture&>();
            return view(c.motion.values.data(), {frames(c), c.motion.channel_count}, self);
          },
          "(frames, dofs) float64: each frame's channel values, bone after bone in dof-line order, radians and "
          "metres (channel_names). A read-only view.")
      .def_property_readonly(
          "joint_names", [](const Capture& c) { return c.bone_names; },
          "Root first, then each bone (its end point), as `mocap fk` names them.")
      .def_property_readonly(
          "parents",
          [](const Capture& c) {
            std::vector<int> parents;
            for (const Bone& bone : c.skeleton.bones) parents.push_back(bone.parent);
            return owned(std::move(parents), {joints(c)});
          },
          "Each joint's parent joint (int32; -1 for the root).")
      .def_property_readonly(
          "channel_names",
          [](const Capture& c) {
            std::vector<std::string> names;
            for (std::size_t b = 0; b < c.skeleton.bones.size(); ++b)
              for (const Channel dof : c.skeleton.bones[b].dofs)
                names.push_back(c.bone_names[b] + "." + std::string(channel_name(dof, b == 0)));
            return names;
          },
          "'bone.dof' of each column of channels ('root.TX', 'lfemur.rx', ...).")
      .def_property_readonly(
          "asf_path", [](const Capture& c) { return c.asf_path; }, "The skeleton's file.")
      .def_property_readonly(
          "amc_path", [](const Capture& c) { return c.amc_path; },
          "The motion's file (the .bvh for a BVH clip, the .mkc for a decompressed one).")
      .def_property_readonly(
          "is_bvh", [](const Capture& c) { return c.skeleton.offsets_in_parent_frame; },
          "True for a BVH skeleton (joints at their offsets), False for an ASF one.")
      .def_property_readonly(
          "duration", [](const Capture& c) { return c.motion.duration_seconds(); }, "Seconds: frames / fps.")
      .def("__len__", [](const Capture& c) { return frames(c); })
      .def(
          "world_positions",
          [](const Capture& c) {
            std::vector<Eigen::Vector3d> positions;
            {
              py::gil_scoped_release release;
              positions = world_positions(c.skeleton, c.motion);
            }
            return owned<Eigen::Vector3d, double>(std::move(positions), {frames(c), joints(c), 3});
          },
          "(frames, joints, 3) float64, metres: the root's position, then each bone's end point (core/fk.h).")
      .def(
          "world_transforms",
          [](const Capture& c) {
            const auto count = static_cast<std::size_t>(frames(c) * joints(c));
            std::vector<Eigen::Vector3d> positions(count);
            std::vector<Eigen::Quaterniond> rotations(count);
            {
              py::gil_scoped_release release;
              world_transforms(c.skeleton, c.motion, positions, rotations);
            }
            return py::make_tuple(owned<Eigen::Vector3d, double>(std::move(positions), {frames(c), joints(c), 3}),
                                  owned<Eigen::Quaterniond, double>(std::move(rotations), {frames(c), joints(c), 4}));
          },
          "(positions, rotations): world_positions and each joint's world rotation as a unit quaternion "
          "(frames, joints, 4) in x, y, z, w order.")
      .def("__repr__", [](const Capture& c) {
        return "<mocap.Clip " + std::filesystem::path(c.amc_path).filename().string() + ": " +
               std::to_string(frames(c)) + " frames at " + py::str(py::float_(c.motion.fps)).cast<std::string>() +
               " fps, " + std::to_string(joints(c)) + " joints>";
      });

  m.def("read_clip", &read_clip_file, py::arg("path"), py::arg("amc") = py::none(), py::kw_only(),
        py::arg("fps") = 120.0, py::arg("units") = "cm",
        "read_clip(asf, amc, fps=120) or read_clip(bvh, units='cm'): a Clip (io/capture.h).");
  m.def("compress", &compress, py::arg("clip"), py::arg("max_error") = 1.0, py::kw_only(),
        py::arg("max_velocity_error") = ClipEncodeOptions{}.max_velocity_error_cm_s,
        py::arg("contact_error") = ClipEncodeOptions{}.max_contact_error_cm,
        py::arg("contact_speed") = ClipEncodeOptions{}.max_contact_speed_cm_s,
        "The .mkc bytes of `clip`, every joint on every frame within max_error cm (compress/compress_clip.h).");
  m.def("decompress", &decompress, py::arg("clip"), py::arg("data"), py::kw_only(), py::arg("name") = "<bytes>",
        "A Clip of `clip`'s skeleton decoded from a .mkc (bytes, or a path).");
  m.def("eval_json", &eval_json, py::arg("a"), py::arg("b"), py::arg("velocity_weight") = 1.0,
        py::arg("shell_radius_cm") = 3.0, "`mocap eval --json`'s object as text; mocap.eval parses it.");
  m.def("foot_contacts", &foot_contacts, py::arg("clip"), "Each foot's contacts (core/foot_contacts.h).");
  m.def(
      "write_bvh",
      [](const Capture& clip, const std::filesystem::path& path, const std::string& units) {
        const double metres = length_unit(units);
        py::gil_scoped_release release;
        check(write_bvh(clip.skeleton, clip.motion, path_text(path), metres));
      },
      py::arg("clip"), py::arg("path"), py::kw_only(), py::arg("units") = "cm", "The clip as a BVH file (io/bvh.h).");
  m.def("write_amc", &write_amc_file, py::arg("clip"), py::arg("path"),
        "An ASF clip's motion as AMC, laid out as it was read (io/amc.h).");
  m.def("write_asf_amc", &write_asf_amc, py::arg("clip"), py::arg("asf"), py::arg("amc"),
        "Any clip as a new ASF skeleton and AMC motion (io/bvh_to_asf.h), both or neither.");
  py::class_<BoundMeshFile>(m, "BoundMesh", "A mesh bound to a skeleton, weights and all (rig/mesh_bind.h).")
      .def_property_readonly(
          "vertices",
          [](py::object self) {
            const Mesh& mesh = self.cast<const BoundMeshFile&>().bound.mesh;
            return view(mesh.positions.data()->data(), {mesh.vertex_count(), 3}, self);
          },
          "(vertices, 3) float32, metres: the mesh as it stands (the bind pose). A read-only view.")
      .def_property_readonly(
          "triangles",
          [](const BoundMeshFile& b) {
            std::vector<int> corners;
            for (const MeshTriangle& t : b.bound.mesh.triangles)
              corners.insert(corners.end(), t.vertex.begin(), t.vertex.end());
            return owned(std::move(corners), {static_cast<py::ssize_t>(b.bound.mesh.triangles.size()), 3});
          },
          "(triangles, 3) int32 vertex indices, counter-clockwise seen from outside.")
      .def_property_readonly("joint_names", [](const BoundMeshFile& b) { return b.joint_names; })
      .def_property_readonly(
          "scale", [](const BoundMeshFile& b) { return b.bound.bind.placement.scale; },
          "The skeleton's scale onto the mesh.")
      .def_property_readonly("automatic_weights", [](const BoundMeshFile& b) { return b.bound.automatic_weights; })
      .def_property_readonly(
          "fit_note", [](const BoundMeshFile& b) { return b.bound.fit_note; },
          "What the embedding did not fit and why; empty when all was.");
  m.def("bind_mesh", &bind_mesh_file, py::arg("clip"), py::arg("mesh"), py::kw_only(), py::arg("units") = "m",
        py::arg("bind_pose") = py::none(), py::arg("weights") = py::none(), py::arg("fit") = "embed",
        py::arg("weight_method") = "voxel", py::arg("yaw") = 0.0,
        "An OBJ bound to clip's skeleton: embedded, weighted by bone heat unless a weights file is given.");
  m.def("skin", &skin, py::arg("clip"), py::arg("mesh"), py::kw_only(), py::arg("method") = "lbs",
        py::arg("threads") = 0, py::arg("frames") = py::none(),
        "(frames, vertices, 3) float32 metres: the bound mesh posed by each frame (lbs or dqs).");
  m.def("eye_track", &eye_track_arrays, py::arg("clip") = py::none(), py::kw_only(), py::arg("rate") = py::none(),
        py::arg("duration") = py::none(), py::arg("seed") = 1, py::arg("model") = "design", py::arg("mode") = "free",
        py::arg("pad") = std::array<double, 3>{0.0, 0.0, 0.0}, py::arg("target") = py::none(),
        "Procedural eyes on clip's timeline (or alone): {'time', 'left', 'right' (n, 4: x, y, openness, pupil), "
        "'brow'}.");
  m.def("write_glb", &write_glb_file, py::arg("clip"), py::arg("path"),
        "A skeleton-only glTF binary of the clip (rig/gltf.h).");
}
