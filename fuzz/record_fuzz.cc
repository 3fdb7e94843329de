// libFuzzer harness: the game record reader and the state JSON reader (src/engine/record.cc)
// on arbitrary bytes. Each input is read as a record (parsed, replayed with final scoring,
// written back) and as a state JSON (restored, written back). Anything but a RecordError is a
// finding: a crash, a sanitizer report, a leak, a hang, or another exception escaping.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "record.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const carc::Record r = carc::parse_record(text);
    carc::Replay rp = carc::replay(r, true);
    (void)carc::record_to_json(r);
    (void)carc::state_to_json(rp.state);
  } catch (const carc::RecordError&) {
  }
  try {
    const carc::State s = carc::state_from_json(text);
    (void)carc::state_to_json(s);
    (void)carc::observation_json(s, 0);
  } catch (const carc::RecordError&) {
  }
  return 0;
}
