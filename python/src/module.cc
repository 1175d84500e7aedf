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
#include <mocap/eyes/capture_eyes.h>
#include <mocap/eyes/eye_stream.h>
#include <mocap/eyes/eyes.h>
#include <mocap/io/amc.h>
#include <mocap/io/asf.h>
#include <mocap/io/atomic_write.h>
#include <mocap/io/bvh.h>
#include <mocap/io/bvh_to_asf.h>
#include <mocap/io/capture.h>
#include <mocap/retarget/gltf_splice.h>
#include <mocap/retarget/retarget.h>
#include <mocap/rig/gltf.h>
#include <mocap/rig/mesh_bind.h>
#include <mocap/rig/rigged_model.h>
#include <mocap/skin/edge_stretch.h>
#include <mocap/skin/skin_frames.h>
#include <mocap/skin/skinner.h>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
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

// Procedural eyes on a clip's timeline (its head leading the eyes) or alone,
// set up as `mocap eyes` sets them up (eyes/capture_eyes.h).
CaptureEyes eyes_of(const Capture* clip, bool to_displays, std::optional<double> rate, std::optional<double> duration,
                    std::uint64_t seed, const std::string& model, const std::string& mode, std::array<double, 3> pad,
                    std::optional<std::array<double, 3>> target) {
  const Result<EyeModel> eye_model = parse_eye_model(model);
  if (!eye_model) throw py::value_error("model: " + eye_model.error().message);
  const Result<ConversationMode> conversation_mode = parse_conversation_mode(mode);
  if (!conversation_mode) throw py::value_error("mode: " + conversation_mode.error().message);
  for (const double v : pad)
    if (!(v >= -1.0 && v <= 1.0)) throw py::value_error("pad: expected pleasure, arousal, dominance each in [-1, 1]");
  if ((rate && !(*rate > 0)) || (duration && !(*duration >= 0)))
    throw py::value_error("rate and duration: expected rate > 0 and duration >= 0");
  CaptureEyesRequest request;
  request.params.model = *eye_model;
  request.params.mode = *conversation_mode;
  request.params.emotion = {pad[0], pad[1], pad[2]};
  request.seed = seed;
  if (target) request.world_target = Eigen::Vector3d((*target)[0], (*target)[1], (*target)[2]);
  request.to_displays = to_displays;
  request.rate_hz = rate;
  request.duration_s = duration;
  if (to_displays && !clip && !duration) request.duration_s = 10.0;  // lines, not a stream until stopped
  return take(capture_eyes(clip, request));
}

// `mocap eyes -o track.csv`'s numbers: its rate the clip's or 40 Hz.
// Columns as its CSV: time; per eye x, y, openness, pupil; brow.
py::dict eye_track_arrays(const Capture* clip, std::optional<double> rate, std::optional<double> duration,
                          std::uint64_t seed, const std::string& model, const std::string& mode,
                          std::array<double, 3> pad, std::optional<std::array<double, 3>> target) {
  const CaptureEyes eyes = eyes_of(clip, false, rate, duration, seed, model, mode, pad, target);
  std::vector<EyeFrame> frames;
  {
    py::gil_scoped_release release;
    EyeTimeline timeline(eyes.options);
    frames = eye_track(timeline, eyes.fps, eyes.seconds);
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

// The serial lines the two displays read (eyes/eye_stream.h
// eye_stream_lines): `mocap eyes --left L --right R`'s bytes, at 40 Hz
// unless `rate` says otherwise, as the CLI streams. Written to `left` /
// `right` when given: paths (both written or neither) or objects with
// write().
py::tuple eye_stream(const Capture* clip, std::optional<double> rate, std::optional<double> duration,
                     std::uint64_t seed, const std::string& model, const std::string& mode, std::array<double, 3> pad,
                     std::optional<std::array<double, 3>> target, bool swap, std::array<std::string, 3> keys,
                     std::array<double, 2> x_range, std::array<double, 2> y_range, std::array<double, 2> l_range,
                     const std::string& pupil_key, const std::string& sequence_key, int decimals,
                     const py::object& left, const py::object& right) {
  const CaptureEyes eyes = eyes_of(clip, true, rate, duration, seed, model, mode, pad, target);
  EyeStreamOptions options;
  options.fps = eyes.fps;
  options.duration_s = eyes.seconds;
  options.swap = swap;
  EyeLineFormat& format = options.format;
  format.x_key = keys[0];
  format.y_key = keys[1];
  format.openness_key = keys[2];
  format.x_min = x_range[0], format.x_max = x_range[1];
  format.y_min = y_range[0], format.y_max = y_range[1];
  format.l_min = l_range[0], format.l_max = l_range[1];
  format.pupil_key = pupil_key;
  format.sequence_key = sequence_key;
  format.decimals = decimals;
  Result<EyeStreamLines> lines = fail("", 0, "");
  {
    py::gil_scoped_release release;
    EyeTimeline timeline(eyes.options);
    lines = eye_stream_lines(options, [&timeline](double t) { return timeline.at(t); });
  }
  if (!lines) throw py::value_error(lines.error().message);
  std::vector<OutputFile> files;
  std::vector<std::pair<py::object, const std::vector<std::string>*>> streams;
  for (const auto& [out, device] : {std::pair{&left, &lines->left}, std::pair{&right, &lines->right}}) {
    if (out->is_none()) continue;
    if (py::hasattr(*out, "write")) {
      streams.emplace_back(*out, device);
    } else {
      std::string text;
      for (const std::string& line : *device) text += line;
      files.push_back({path_text(out->cast<std::filesystem::path>()), std::move(text)});
    }
  }
  if (!files.empty()) {
    py::gil_scoped_release release;
    check(write_files_atomically(files));
  }
  for (const auto& [out, device] : streams)
    for (const std::string& line : *device) out.attr("write")(line);
  return py::make_tuple(lines->left, lines->right);
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
  const Result<BindFit> bind_fit = parse_bind_fit(fit);
  if (!bind_fit) throw py::value_error("fit: " + bind_fit.error().message);
  const Result<WeightMethod> method = parse_weight_method(weight_method);
  if (!method) throw py::value_error("weight_method: " + method.error().message);
  MeshBindOptions options;
  options.mesh_path = path_text(mesh);
  options.units = units;
  if (bind_pose) options.bind_pose_amc = path_text(*bind_pose);
  options.bind_pose_fps = clip.motion.fps;
  if (weights) options.weights_path = path_text(*weights);
  options.fit = *bind_fit;
  options.weight_method = *method;
  options.yaw_radians = yaw_radians;
  check(options.validate());
  Result<BoundMesh> bound = fail("", 0, "");
  {
    py::gil_scoped_release release;
    bound = bind_mesh(clip.skeleton, options);
  }
  return {take(std::move(bound)), clip.bone_names, options.mesh_path};
}

// `frames` (indices into `count` frames of `what`), or every one when none.
std::vector<int> pick_frames(std::optional<std::vector<int>> frames, int count, const std::string& what) {
  std::vector<int> picked;
  if (frames) {
    picked = std::move(*frames);
    for (const int f : picked)
      if (f < 0 || f >= count)
        throw py::index_error("frames: " + std::to_string(f) + " is not a frame index of " + what + " (0 to " +
                              std::to_string(count - 1) + ")");
  } else {
    for (int f = 0; f < count; ++f) picked.push_back(f);
  }
  return picked;
}

SkinMethod skin_method(const std::string& method) {
  const Result<SkinMethod> parsed = parse_skin_method(method);
  if (!parsed) throw py::value_error("method: " + parsed.error().message);
  return *parsed;
}

// `mesh` deformed by `pose` on each of `picked` (skin_frames through a
// Skinner), each frame's positions copied out: (frames, vertices, 3)
// float32, the mesh's units. `name` prefixes a Skinner error, as the CLI's.
py::array_t<float> skin_sequence(const Mesh& mesh, std::span<const VertexWeights> weights, std::size_t joints,
                                 SkinMethod method, int threads, const std::vector<int>& picked, const PoseFrame& pose,
                                 const std::string& name) {
  const std::size_t vertices = mesh.positions.size();
  std::vector<Eigen::Vector3f> out(picked.size() * vertices);
  {
    py::gil_scoped_release release;
    Result<Skinner> created = Skinner::create(mesh, weights, joints, method, threads);
    if (!created) throw LibraryError{Error{name, 0, created.error().message}};
    std::size_t next = 0;
    take(skin_frames(*created, picked, pose, [&](int, const Skinner& posed) -> Result<void> {
      std::copy(posed.positions().begin(), posed.positions().end(), out.begin() + next);
      next += vertices;
      return {};
    }));
  }
  static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));
  return owned<Eigen::Vector3f, float>(
      std::move(out), {static_cast<py::ssize_t>(picked.size()), static_cast<py::ssize_t>(vertices), 3});
}

// The mesh posed by `frames` (indices; all when none) of `clip`:
// (frames, vertices, 3) float32, metres, as `mocap skin`'s OBJ frames.
py::array_t<float> skin(const Capture& clip, const BoundMeshFile& mesh, const std::string& method, int threads,
                        std::optional<std::vector<int>> frames) {
  if (mesh.joint_names != clip.bone_names)
    throw LibraryError{Error{clip.amc_path, 0, "not a motion of the skeleton " + mesh.mesh_path + " was bound to"}};
  const SkinMethod how = skin_method(method);
  const std::vector<int> picked = pick_frames(std::move(frames), clip.motion.frame_count(), clip.amc_path);
  return skin_sequence(mesh.bound.mesh, mesh.bound.weights, clip.skeleton.bones.size(), how, threads, picked,
                       pose_from_motion(clip.skeleton, clip.motion, mesh.bound.bind), mesh.mesh_path);
}

// How far `posed`'s edges ((frames, vertices, 3), any skin() result) get
// from their lengths in `vertices` ((vertices, 3), the mesh at rest, the
// same units) over `triangles`: `mocap skin --stretch-report`'s figures.
py::dict edge_stretch(const py::array_t<float, py::array::c_style | py::array::forcecast>& vertices,
                      const py::array_t<int, py::array::c_style | py::array::forcecast>& triangles,
                      const py::array_t<float, py::array::c_style | py::array::forcecast>& posed, double bound) {
  if (vertices.ndim() != 2 || vertices.shape(1) != 3) throw py::value_error("vertices: expected (vertices, 3)");
  if (triangles.ndim() != 2 || triangles.shape(1) != 3) throw py::value_error("triangles: expected (triangles, 3)");
  if (posed.ndim() != 3 || posed.shape(1) != vertices.shape(0) || posed.shape(2) != 3)
    throw py::value_error("posed: expected (frames, " + std::to_string(vertices.shape(0)) + ", 3)");
  if (!(bound > 0)) throw py::value_error("bound: expected a ratio > 0");
  Mesh mesh;
  const float* v = vertices.data();
  for (py::ssize_t i = 0; i < vertices.shape(0); ++i) mesh.positions.emplace_back(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  const int* t = triangles.data();
  for (py::ssize_t i = 0; i < triangles.shape(0); ++i) {
    MeshTriangle triangle{{t[3 * i], t[3 * i + 1], t[3 * i + 2]}};
    for (const int corner : triangle.vertex)
      if (corner < 0 || corner >= vertices.shape(0))
        throw py::value_error("triangles: vertex " + std::to_string(corner) + " is not one of the " +
                              std::to_string(vertices.shape(0)) + " vertices");
    mesh.triangles.push_back(triangle);
  }
  EdgeStretch stretch = make_edge_stretch(mesh, bound);
  static_assert(sizeof(Eigen::Vector3f) == 3 * sizeof(float));
  const auto* frames = reinterpret_cast<const Eigen::Vector3f*>(posed.data());
  const auto count = static_cast<std::size_t>(vertices.shape(0));
  for (py::ssize_t f = 0; f < posed.shape(0); ++f) {
    add_stretch_frame(stretch, static_cast<int>(f), std::span(frames + static_cast<std::size_t>(f) * count, count));
  }
  py::dict out;
  out["longest"] = stretch.longest;
  out["frames"] = stretch.frames;
  out["past_bound"] = stretch.past_bound;
  if (stretch.longest_edge >= 0) {
    const auto e = static_cast<std::size_t>(stretch.longest_edge);
    out["vertices"] = py::make_tuple(stretch.edges[e][0], stretch.edges[e][1]);
    out["frame"] = stretch.longest_frame;
    out["rest_length"] = stretch.rest[e];
  } else {
    out["vertices"] = py::none();
    out["frame"] = py::none();
    out["rest_length"] = py::none();
  }
  return out;
}

// Rigged models (rig/rigged_model.h) and retargeting (retarget/): a model
// held by a shared pointer, so that a Retargeted's model (inside the
// library's RetargetFileResult) is a RiggedModel too.
// (pybind11 holds no pointer to const; nothing here changes them.)
using ModelPtr = std::shared_ptr<RiggedModel>;
using RetargetPtr = std::shared_ptr<RetargetFileResult>;

ModelPtr read_model_file(const std::filesystem::path& path) {
  Result<RiggedModel> model = fail("", 0, "");
  {
    py::gil_scoped_release release;
    model = read_rigged_model(path_text(path));
  }
  return std::make_shared<RiggedModel>(take(std::move(model)));
}

const ModelAnimation& model_animation(const RiggedModel& model, const std::string& name) {
  return *take(find_animation(model, name));
}

// Frame k of the model's animation at k / fps, as `mocap skin --model`:
// frames 0 to floor(duration * fps).
int animation_frames(const ModelAnimation& animation, double fps) {
  if (!(fps > 0)) throw py::value_error("fps: expected a positive number of frames per second");
  return animation_frame_count(animation, fps);
}

// (frames, joints, 4, 4) float64: each skin joint's node's world transform
// G_j (rigged_model.h) on each of `picked`, as row-major 4 x 4 matrices
// (a point is M @ [x, y, z, 1]), the model's units. `set_pose(k, pose)`
// poses frame k.
template <class SetPose>
py::array_t<double> joint_transforms(const RiggedModel& model, ModelPose pose, const std::vector<int>& picked,
                                     const SetPose& set_pose) {
  const std::size_t joints = model.joints.size();
  std::vector<double> out(picked.size() * joints * 16);
  {
    py::gil_scoped_release release;
    std::vector<Eigen::Affine3d> world(model.nodes.size());
    double* next = out.data();
    for (const int k : picked) {
      set_pose(k, pose);
      node_world_transforms(model, pose, world);
      for (const ModelJoint& joint : model.joints) {
        const Eigen::Matrix4d& m = world[static_cast<std::size_t>(joint.node)].matrix();
        for (int r = 0; r < 4; ++r)
          for (int c = 0; c < 4; ++c) *next++ = m(r, c);
      }
    }
  }
  return owned(std::move(out), {static_cast<py::ssize_t>(picked.size()), static_cast<py::ssize_t>(joints), 4, 4});
}

RetargetPtr retarget(const Capture& clip, const py::object& model, const std::optional<std::filesystem::path>& map,
                     bool plant_feet, bool keep_animations, const std::optional<std::string>& name) {
  const std::string model_path = py::isinstance<RiggedModel>(model) ? model.cast<const RiggedModel&>().path
                                                                    : path_text(model.cast<std::filesystem::path>());
  RetargetOptions options;
  if (map) options.map_path = path_text(*map);
  options.plant_feet = plant_feet;
  // The animation's name as `mocap retarget` gives it: the motion file's stem.
  const std::string clip_name = name.value_or(std::filesystem::path(clip.amc_path).stem().string());
  Result<RetargetFileResult> result = fail("", 0, "");
  {
    py::gil_scoped_release release;
    result =
        retarget_model_file(clip.skeleton, clip.motion, clip.asf_path, model_path, clip_name, options, keep_animations);
  }
  return std::make_shared<RetargetFileResult>(take(std::move(result)));
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
          "What the embedding did not fit and why; empty when all was.")
      .def_property_readonly(
          "units_note", [](const BoundMeshFile& b) { return b.bound.units_note; },
          "Says the mesh's size in `units` is no person's (0.3-3 m); empty when it is.");
  m.def("bind_mesh", &bind_mesh_file, py::arg("clip"), py::arg("mesh"), py::kw_only(), py::arg("units") = "m",
        py::arg("bind_pose") = py::none(), py::arg("weights") = py::none(), py::arg("fit") = "embed",
        py::arg("weight_method") = "voxel", py::arg("yaw") = 0.0,
        "An OBJ bound to clip's skeleton: embedded, weighted by bone heat unless a weights file is given.");
  m.def("skin", &skin, py::arg("clip"), py::arg("mesh"), py::kw_only(), py::arg("method") = "lbs",
        py::arg("threads") = 0, py::arg("frames") = py::none(),
        "(frames, vertices, 3) float32 metres: the bound mesh posed by each frame (lbs or dqs).");
  m.def("edge_stretch", &edge_stretch, py::arg("vertices"), py::arg("triangles"), py::arg("posed"), py::kw_only(),
        py::arg("bound") = 3.0,
        "posed's edges (frames, vertices, 3) against their lengths in vertices (the mesh at rest): {'longest', "
        "'vertices', 'frame', 'rest_length', 'past_bound', 'frames'}, as mocap skin --stretch-report.");
  m.def("eye_track", &eye_track_arrays, py::arg("clip") = py::none(), py::kw_only(), py::arg("rate") = py::none(),
        py::arg("duration") = py::none(), py::arg("seed") = 1, py::arg("model") = "design", py::arg("mode") = "free",
        py::arg("pad") = std::array<double, 3>{0.0, 0.0, 0.0}, py::arg("target") = py::none(),
        "Procedural eyes on clip's timeline (or alone): {'time', 'left', 'right' (n, 4: x, y, openness, pupil), "
        "'brow'}.");
  m.def("eye_stream", &eye_stream, py::arg("clip") = py::none(), py::kw_only(), py::arg("rate") = py::none(),
        py::arg("duration") = py::none(), py::arg("seed") = 1, py::arg("model") = "design", py::arg("mode") = "free",
        py::arg("pad") = std::array<double, 3>{0.0, 0.0, 0.0}, py::arg("target") = py::none(), py::arg("swap") = false,
        py::arg("keys") = std::array<std::string, 3>{"x", "y", "l"},
        py::arg("x_range") = std::array<double, 2>{-1.0, 1.0}, py::arg("y_range") = std::array<double, 2>{-1.0, 1.0},
        py::arg("l_range") = std::array<double, 2>{0.0, 1.0}, py::arg("pupil_key") = "", py::arg("sequence_key") = "",
        py::arg("decimals") = 3, py::arg("left") = py::none(), py::arg("right") = py::none(),
        "(left, right): the JSON lines (each ending in a newline) the two serial eye displays read, as `mocap eyes "
        "--left L --right R` writes them; also written to left / right when given (paths or file objects).");
  m.def("write_glb", &write_glb_file, py::arg("clip"), py::arg("path"),
        "A skeleton-only glTF binary of the clip (rig/gltf.h).");

  py::class_<RiggedModel, ModelPtr>(m, "RiggedModel",
                                    "A rigged model read through Assimp (rig/rigged_model.h): nodes, skin joints, "
                                    "mesh, weights, animations; lengths in the file's units")
      .def_property_readonly("path", [](const RiggedModel& r) { return r.path; })
      .def_property_readonly(
          "node_names",
          [](const RiggedModel& r) {
            std::vector<std::string> names;
            for (const ModelNode& n : r.nodes) names.push_back(n.name);
            return names;
          },
          "Every node of the hierarchy, parents first; node 0 is the scene root.")
      .def_property_readonly(
          "node_parents",
          [](const RiggedModel& r) {
            std::vector<int> parents;
            for (const ModelNode& n : r.nodes) parents.push_back(n.parent);
            return owned(std::move(parents), {static_cast<py::ssize_t>(r.nodes.size())});
          },
          "(nodes,) int32 each node's parent node, -1 for the scene root.")
      .def_property_readonly(
          "rest_translations",
          [](const RiggedModel& r) {
            std::vector<Eigen::Vector3d> t;
            for (const ModelNode& n : r.nodes) t.push_back(n.translation);
            return owned<Eigen::Vector3d, double>(std::move(t), {static_cast<py::ssize_t>(r.nodes.size()), 3});
          },
          "(nodes, 3) float64: each node's local translation in the file (T of T * R * S).")
      .def_property_readonly(
          "rest_rotations",
          [](const RiggedModel& r) {
            std::vector<Eigen::Quaterniond> q;
            for (const ModelNode& n : r.nodes) q.push_back(n.rotation);
            return owned<Eigen::Quaterniond, double>(std::move(q), {static_cast<py::ssize_t>(r.nodes.size()), 4});
          },
          "(nodes, 4) float64: each node's local rotation, a unit quaternion x, y, z, w.")
      .def_property_readonly(
          "rest_scales",
          [](const RiggedModel& r) {
            std::vector<Eigen::Vector3d> t;
            for (const ModelNode& n : r.nodes) t.push_back(n.scale);
            return owned<Eigen::Vector3d, double>(std::move(t), {static_cast<py::ssize_t>(r.nodes.size()), 3});
          },
          "(nodes, 3) float64: each node's local scale.")
      .def_property_readonly(
          "joint_names", [](const RiggedModel& r) { return r.joint_names(); },
          "The skin's joints (their nodes' names), in joint order: weights' joint indices index these.")
      .def_property_readonly(
          "joint_nodes",
          [](const RiggedModel& r) {
            std::vector<int> nodes;
            for (const ModelJoint& j : r.joints) nodes.push_back(j.node);
            return owned(std::move(nodes), {static_cast<py::ssize_t>(r.joints.size())});
          },
          "(joints,) int32: the node each joint is.")
      .def_property_readonly(
          "joint_parents",
          [](const RiggedModel& r) {
            std::vector<int> joint_of(r.nodes.size(), -1), parents;
            for (std::size_t j = 0; j < r.joints.size(); ++j)
              joint_of[static_cast<std::size_t>(r.joints[j].node)] = static_cast<int>(j);
            for (const ModelJoint& j : r.joints) {
              int node = r.nodes[static_cast<std::size_t>(j.node)].parent;
              while (node >= 0 && joint_of[static_cast<std::size_t>(node)] < 0)
                node = r.nodes[static_cast<std::size_t>(node)].parent;
              parents.push_back(node < 0 ? -1 : joint_of[static_cast<std::size_t>(node)]);
            }
            return owned(std::move(parents), {static_cast<py::ssize_t>(r.joints.size())});
          },
          "(joints,) int32: each joint's nearest ancestor joint, -1 for none.")
      .def_property_readonly(
          "inverse_bind_matrices",
          [](const RiggedModel& r) {
            std::vector<double> out;
            for (const ModelJoint& j : r.joints)
              for (int row = 0; row < 4; ++row)
                for (int col = 0; col < 4; ++col) out.push_back(j.inverse_bind(row, col));
            return owned(std::move(out), {static_cast<py::ssize_t>(r.joints.size()), 4, 4});
          },
          "(joints, 4, 4) float64 row-major: model space to each joint's node space.")
      .def_property_readonly(
          "vertices",
          [](py::object self) {
            const Mesh& mesh = self.cast<const RiggedModel&>().mesh;
            return view(mesh.positions.data()->data(), {mesh.vertex_count(), 3}, self);
          },
          "(vertices, 3) float32: the mesh in model space, bind pose, the file's units. A read-only view.")
      .def_property_readonly(
          "triangles",
          [](const RiggedModel& r) {
            std::vector<int> corners;
            for (const MeshTriangle& t : r.mesh.triangles)
              corners.insert(corners.end(), t.vertex.begin(), t.vertex.end());
            return owned(std::move(corners), {static_cast<py::ssize_t>(r.mesh.triangles.size()), 3});
          },
          "(triangles, 3) int32 vertex indices.")
      .def_property_readonly(
          "weights",
          [](const RiggedModel& r) {
            std::vector<int> joints;
            std::vector<float> weights;
            for (const VertexWeights& w : r.weights) {
              joints.insert(joints.end(), w.bone.begin(), w.bone.end());
              weights.insert(weights.end(), w.weight.begin(), w.weight.end());
            }
            const auto n = static_cast<py::ssize_t>(r.weights.size());
            return py::make_tuple(owned(std::move(joints), {n, kMaxInfluences}),
                                  owned(std::move(weights), {n, kMaxInfluences}));
          },
          "(joints, weights): (vertices, 4) int32 joint indices by decreasing weight and (vertices, 4) float32 "
          "weights summing to 1 (0 in unused slots).")
      .def_property_readonly(
          "animation_names",
          [](const RiggedModel& r) {
            std::vector<std::string> names;
            for (const ModelAnimation& a : r.animations) names.push_back(a.name);
            return names;
          },
          "The model's own animations, as in the file.")
      .def(
          "joint_transforms",
          [](const RiggedModel& r, const std::string& animation, double fps, std::optional<std::vector<int>> frames) {
            const ModelAnimation& a = model_animation(r, animation);
            const std::vector<int> picked = pick_frames(std::move(frames), animation_frames(a, fps), r.path);
            return joint_transforms(r, rest_pose(r), picked,
                                    [&](int k, ModelPose& pose) { sample_animation(r, a, k / fps, pose); });
          },
          py::arg("animation") = "", py::kw_only(), py::arg("fps") = 30.0, py::arg("frames") = py::none(),
          "(frames, joints, 4, 4) float64: each joint's world transform (row-major) on frame k of the animation "
          "(default the first) at k / fps s.")
      .def(
          "skin",
          [](const RiggedModel& r, const std::string& animation, double fps, const std::string& method, int threads,
             std::optional<std::vector<int>> frames) {
            const ModelAnimation& a = model_animation(r, animation);
            const SkinMethod how = skin_method(method);
            const std::vector<int> picked = pick_frames(std::move(frames), animation_frames(a, fps), r.path);
            return skin_sequence(r.mesh, r.weights, r.joints.size(), how, threads, picked,
                                 pose_from_animation(r, a, fps), r.path);
          },
          py::arg("animation") = "", py::kw_only(), py::arg("fps") = 30.0, py::arg("method") = "lbs",
          py::arg("threads") = 0, py::arg("frames") = py::none(),
          "(frames, vertices, 3) float32: the mesh skinned by its own animation, frame k at k / fps s, as "
          "`mocap skin --model` writes its OBJ frames.")
      .def("__repr__", [](const RiggedModel& r) {
        return "<mocap.RiggedModel " + std::filesystem::path(r.path).filename().string() + ": " +
               std::to_string(r.nodes.size()) + " nodes, " + std::to_string(r.joints.size()) + " joints, " +
               std::to_string(r.mesh.vertex_count()) + " vertices>";
      });
  m.def("read_rigged_model", &read_model_file, py::arg("path"),
        "A rigged model (glTF/GLB, COLLADA, FBX: anything Assimp reads) with its skin and animations.");

  py::class_<RetargetFileResult, RetargetPtr>(m, "Retargeted",
                                              "A capture retargeted onto a rigged model, and the .glb of it "
                                              "(retarget/gltf_splice.h retarget_model_file)")
      .def_property_readonly(
          "model", [](const RetargetPtr& r) { return ModelPtr(r, &r->model); },
          "The model as retargeting read it (its .glb, so that node names are the output's).")
      .def_property_readonly("name", [](const RetargetFileResult& r) { return r.clip.name; })
      .def_property_readonly("fps", [](const RetargetFileResult& r) { return r.clip.fps; })
      .def("__len__", [](const RetargetFileResult& r) { return r.clip.frame_count; })
      .def_property_readonly(
          "glb", [](const RetargetFileResult& r) { return py::bytes(r.glb); },
          "The model's .glb with the animation added: the bytes `mocap retarget -o out.glb` writes.")
      .def_property_readonly(
          "scale", [](const RetargetFileResult& r) { return r.rig.scale; }, "Model units per capture metre.")
      .def_property_readonly(
          "lift", [](const RetargetFileResult& r) { return r.clip.lift; },
          "Height added to the hips for the soles to meet the floor, model units.")
      .def_property_readonly(
          "body_lift",
          [](const RetargetFileResult& r) {
            std::vector<double> lift = r.clip.body_lift;
            const auto n = static_cast<py::ssize_t>(lift.size());
            return owned(std::move(lift), {n});
          },
          "(frames,) float64: hands and head kept above the floor, model units.")
      .def_property_readonly(
          "contacts",
          [](const RetargetFileResult& r) {
            py::list feet;
            for (const FootContacts& side : r.clip.contacts) {
              std::vector<int> intervals;
              for (const FootContact& c : side.contacts) intervals.insert(intervals.end(), {c.first, c.last});
              const auto count = static_cast<py::ssize_t>(intervals.size() / 2);
              feet.append(owned(std::move(intervals), {count, 2}));
            }
            return feet;
          },
          "[left, right]: the capture's ankle contacts, (n, 2) int32 first and last frame index.")
      .def_property_readonly(
          "keyed_nodes",
          [](const RetargetFileResult& r) {
            std::vector<int> nodes = r.clip.nodes;
            const auto n = static_cast<py::ssize_t>(nodes.size());
            return owned(std::move(nodes), {n});
          },
          "(keyed,) int32: the model nodes the animation keys (every skin joint and the hips), ascending.")
      .def_property_readonly(
          "translations",
          [](py::object self) {
            const RetargetedClip& c = self.cast<const RetargetFileResult&>().clip;
            return view(c.translations.data()->data(), {c.frame_count, static_cast<py::ssize_t>(c.nodes.size()), 3},
                        self);
          },
          "(frames, keyed, 3) float64: the keyed nodes' local translations, model units. A read-only view.")
      .def_property_readonly(
          "rotations",
          [](py::object self) {
            const RetargetedClip& c = self.cast<const RetargetFileResult&>().clip;
            return view(c.rotations.data()->coeffs().data(),
                        {c.frame_count, static_cast<py::ssize_t>(c.nodes.size()), 4}, self);
          },
          "(frames, keyed, 4) float64: the keyed nodes' local rotations, unit quaternions x, y, z, w. A read-only "
          "view.")
      .def(
          "joint_transforms",
          [](const RetargetFileResult& r, std::optional<std::vector<int>> frames) {
            const std::vector<int> picked = pick_frames(std::move(frames), r.clip.frame_count, r.clip.name);
            return joint_transforms(r.model, rest_pose(r.model), picked,
                                    [&](int k, ModelPose& pose) { retargeted_pose(r.clip, k, pose); });
          },
          py::kw_only(), py::arg("frames") = py::none(),
          "(frames, joints, 4, 4) float64: each of the model's joints' world transform (row-major, model units) on "
          "each frame, as the .glb plays it.")
      .def(
          "skin",
          [](const RetargetFileResult& r, const std::string& method, int threads,
             std::optional<std::vector<int>> frames) {
            const SkinMethod how = skin_method(method);
            const std::vector<int> picked = pick_frames(std::move(frames), r.clip.frame_count, r.clip.name);
            return skin_sequence(r.model.mesh, r.model.weights, r.model.joints.size(), how, threads, picked,
                                 pose_from_retargeted(r.model, r.clip), r.model.path);
          },
          py::kw_only(), py::arg("method") = "lbs", py::arg("threads") = 0, py::arg("frames") = py::none(),
          "(frames, vertices, 3) float32: the model's mesh skinned on each frame, model units.")
      .def_property_readonly(
          "warnings", [](const RetargetFileResult& r) { return r.warnings; },
          "list[str]: what the output left out of the model, as `mocap retarget` prints it (an image found "
          "nowhere).")
      .def("__repr__", [](const RetargetFileResult& r) {
        return "<mocap.Retargeted " + r.clip.name + " onto " + std::filesystem::path(r.model.path).filename().string() +
               ": " + std::to_string(r.clip.frame_count) + " frames, " + std::to_string(r.rig.driven.size()) +
               " driven joints>";
      });
  m.def("retarget", &retarget, py::arg("clip"), py::arg("model"), py::kw_only(), py::arg("map") = py::none(),
        py::arg("plant_feet") = true, py::arg("keep_animations") = false, py::arg("name") = py::none(),
        "The clip played by a rigged model (a path, or a RiggedModel: its file is read again as a .glb), as "
        "`mocap retarget`: a Retargeted.");
  m.def(
      "write_glb",
      [](const RetargetFileResult& r, const std::filesystem::path& path) {
        py::gil_scoped_release release;
        const std::vector<OutputFile> files{{path_text(path), r.glb}};
        check(write_files_atomically(files));
      },
      py::arg("retargeted"), py::arg("path"), "The retargeted model's .glb, as `mocap retarget -o` writes it.");
}
