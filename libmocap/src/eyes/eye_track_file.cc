#include <mocap/core/parse_name.h>
#include <mocap/eyes/eye_track_file.h>

#include <charconv>
#include <utility>

namespace mocap {
namespace {

void append_number(std::string& out, double v) {
  char buf[48];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 6);
  out.append(buf, ec == std::errc() ? end : buf);
}

std::string csv_of(std::span<const EyeFrame> frames) {
  std::string out = "time,left_x,left_y,left_openness,left_pupil,right_x,right_y,right_openness,right_pupil,brow\n";
  for (const EyeFrame& f : frames) {
    append_number(out, f.time_s);
    for (const EyeSample* e : {&f.left, &f.right}) {
      for (double v : {e->x, e->y, e->openness, e->pupil}) {
        out += ',';
        append_number(out, v);
      }
    }
    out += ',';
    append_number(out, f.brow);
    out += '\n';
  }
  return out;
}

std::string jsonl_of(std::span<const EyeFrame> frames) {
  std::string out;
  for (const EyeFrame& f : frames) {
    out += "{\"t\":";
    append_number(out, f.time_s);
    for (const auto& [name, e] : {std::pair{"left", &f.left}, std::pair{"right", &f.right}}) {
      out += ",\"";
      out += name;
      out += "\":{\"x\":";
      append_number(out, e->x);
      out += ",\"y\":";
      append_number(out, e->y);
      out += ",\"openness\":";
      append_number(out, e->openness);
      out += ",\"pupil\":";
      append_number(out, e->pupil);
      out += '}';
    }
    out += ",\"brow\":";
    append_number(out, f.brow);
    out += "}\n";
  }
  return out;
}

}  // namespace

Result<EyeTrackFormat> parse_eye_track_format(std::string_view name) {
  return parse_name<EyeTrackFormat>(name, {{"csv", EyeTrackFormat::kCsv}, {"jsonl", EyeTrackFormat::kJsonl}});
}

std::string format_eye_track(std::span<const EyeFrame> frames, EyeTrackFormat format) {
  return format == EyeTrackFormat::kCsv ? csv_of(frames) : jsonl_of(frames);
}

}  // namespace mocap
