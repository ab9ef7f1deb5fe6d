// Copyright RingKernel authors.
#include "prerender.h"

#include <algorithm>
#include <utility>

#include "manifest.h"
#include "template_data.h"

namespace ringkernel::gen {

bool Prerendered::matches(const HeaderModel& model) const {
  if (messages.size() != model.messages.size() || enums.size() != model.enums.size() ||
      messageEntries.size() != messages.size() || enumEntries.size() != enums.size()) {
    return false;
  }
  for (std::size_t i = 0; i < messages.size(); ++i) {
    if (messages[i].typeId != model.messages[i].typeId ||
        messages[i].qualifiedName != model.messages[i].qualifiedName) {
      return false;
    }
  }
  for (std::size_t i = 0; i < enums.size(); ++i) {
    if (enums[i].qualifiedName != model.enums[i].qualifiedName) return false;
  }
  return true;
}

Prerenderer::Prerenderer(const TemplateSet& templates)
    : templates_(templates), worker_([this] { run(); }) {}

Prerenderer::~Prerenderer() { finish(); }

void Prerenderer::modelGrew(const std::string& header, std::vector<const MessageModel*> messages,
                            std::vector<const EnumModel*> enums) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (stop_) return;
    queue_.push_back({header, std::move(messages), std::move(enums)});
  }
  wake_.notify_one();
}

void Prerenderer::waitIdle() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && !busy_; });
}

void Prerenderer::discard(const std::string& header) {
  waitIdle();
  const std::lock_guard<std::mutex> lock(mutex_);
  rendered_.erase(header);
}

void Prerenderer::headerParsed(const std::string&) { waitIdle(); }

void Prerenderer::finish() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_one();
  if (worker_.joinable()) worker_.join();
}

Prerendered Prerenderer::take(const std::string& header) {
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto found = rendered_.find(header);
  if (found == rendered_.end()) return {};
  Prerendered parts = std::move(found->second);
  rendered_.erase(found);
  return parts;
}

/// The batch's top-level types, as type_definitions.mustache renders them from a model that holds
/// just the batch (a batch holds whole steps of the frontend: a message and the types nested in it).
void Prerenderer::renderDefinitions(const Batch& batch, Prerendered& done) const {
  HeaderModel part;
  part.messages.reserve(batch.messages.size());
  for (const MessageModel* model : batch.messages) part.messages.push_back(*model);
  for (const EnumModel* model : batch.enums) part.enums.push_back(*model);
  TypeDefinitionsOutline outline = typeDefinitionsOutline(part);
  TemplateValue enums, messages;
  std::string error;
  done.definitionsRendered =
      outline.valid && typeDefinitionsData(part, enums, error, TypeDefinitionParts::Enums) &&
      typeDefinitionsData(part, messages, error, TypeDefinitionParts::Messages) &&
      templates_.renderAppend("type_definitions", enums, done.enumDefinitions, error) &&
      templates_.renderAppend("type_definitions", messages, done.messageDefinitions, error);
  done.outline.enums.insert(done.outline.enums.end(), outline.enums.begin(), outline.enums.end());
  done.outline.messages.insert(done.outline.messages.end(), outline.messages.begin(), outline.messages.end());
}

void Prerenderer::run() {
  for (;;) {
    Batch batch;
    Prerendered* done = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopped, and everything handed over is rendered
      batch = std::move(queue_.front());
      queue_.pop_front();
      busy_ = true;
      done = &rendered_[batch.header];  // only this thread touches it while busy_
    }
    TemplateList traits;
    traits.reserve(batch.messages.size());
    for (const MessageModel* model : batch.messages) {
      done->messages.push_back({model->qualifiedName, model->typeId});
      done->messageEntries.push_back(manifestEntry(*model));
      traits.push_back(messageTraitsData(*model));
    }
    for (const EnumModel* model : batch.enums) {
      done->enums.push_back({model->qualifiedName, 0});
      done->enumEntries.push_back(manifestEntry(*model));
    }
    std::string error;
    std::string& section = done->traitsSection;
    if (const std::size_t needed = section.size() + 4096 * batch.messages.size(); section.capacity() < needed) {
      section.reserve(std::max(needed, 2 * section.capacity()));
    }
    if (done->traitsRendered) {
      done->traitsRendered = templates_.renderAppend(
          "traits_section", TemplateObject(1).add("messages", std::move(traits)), section, error);
    }
    if (done->definitionsRendered) renderDefinitions(batch, *done);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      busy_ = false;
    }
    idle_.notify_all();
  }
}

}  // namespace ringkernel::gen
