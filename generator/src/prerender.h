// Copyright RingKernel authors.
// Renders the per-message parts of a header's outputs (the traits section: the message_traits block
// of every message; the manifest line of every message and enum) on a worker thread while clang
// still parses the header: the frontend hands the messages over in batches as soon as they are built
// (model_listener.h), and renderHeader (emit.h) takes the finished parts instead of rendering them
// itself. traits_section.mustache renders each message on lines of its own, so rendering it batch by
// batch and appending gives the text of one render over all messages; the output does not depend on
// whether the parts were used.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "model_listener.h"
#include "template_data.h"
#include "template_renderer.h"

namespace ringkernel::gen {

/// What the worker rendered for one header, in model order.
struct Prerendered {
  struct Record {  // identifies a record the parts were rendered from
    std::string qualifiedName;
    std::uint32_t typeId = 0;  // 0 for enums
  };
  std::vector<Record> messages;
  std::vector<Record> enums;
  bool traitsRendered = true;       // false: traits_section failed to render (renderHeader reports it)
  std::string traitsSection;        // traits_section.mustache over `messages`, rendered in batches
  std::vector<std::string> messageEntries;  // manifestEntry() of each message
  std::vector<std::string> enumEntries;     // manifestEntry() of each enum
  // type_definitions.mustache, its enums and its messages rendered separately batch by batch; valid
  // for the whole model when `outline` equals the model's and definitionsRendered.
  bool definitionsRendered = true;
  std::string enumDefinitions;
  std::string messageDefinitions;
  TypeDefinitionsOutline outline;

  /// True when these parts belong to exactly the records of `model`, in the same order.
  bool matches(const HeaderModel& model) const;
};

class Prerenderer final : public ModelListener {
 public:
  /// `templates` must outlive the prerenderer; it is only read (rendering is const).
  explicit Prerenderer(const TemplateSet& templates);
  ~Prerenderer() override;
  Prerenderer(const Prerenderer&) = delete;
  Prerenderer& operator=(const Prerenderer&) = delete;

  void modelGrew(const std::string& header, std::vector<const MessageModel*> messages,
                 std::vector<const EnumModel*> enums) override;
  void discard(const std::string& header) override;
  void headerParsed(const std::string& header) override;

  /// Waits for the worker to finish and stops it.
  void finish();
  /// After finish(): the parts rendered for `header` (moved out; empty when none).
  Prerendered take(const std::string& header);

 private:
  struct Batch {
    std::string header;
    std::vector<const MessageModel*> messages;
    std::vector<const EnumModel*> enums;
  };

  void run();
  void renderDefinitions(const Batch& batch, Prerendered& done) const;
  void waitIdle();

  const TemplateSet& templates_;
  std::mutex mutex_;
  std::condition_variable wake_;  // work or stop
  std::condition_variable idle_;  // queue drained
  std::deque<Batch> queue_;
  bool busy_ = false;
  bool stop_ = false;
  std::map<std::string, Prerendered> rendered_;  // by header; guarded by mutex_
  std::thread worker_;
};

}  // namespace ringkernel::gen
