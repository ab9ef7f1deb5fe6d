// Copyright RingKernel authors.
// Hand-built HeaderModels for the backend tests (no clang involved).
#pragma once

#include <string>

#include "model.h"
#include "names.h"

namespace ringkernel::gen::testing {

inline FieldModel scalarField(const std::string& name, FieldKind kind, std::uint64_t offset,
                              std::uint64_t size) {
  FieldModel f;
  f.name = name;
  f.kind = f.underlying = kind;
  f.offset = offset;
  f.size = f.elementSize = f.alignment = f.naturalAlignment = size;
  f.location = {"/src/app.h", 10, 3};
  return f;
}

inline MessageModel message(const std::string& ns, const std::string& name, std::uint64_t size,
                            std::uint64_t alignment, const std::string& header = "/src/app.h") {
  MessageModel m;
  m.namespaces = {ns};
  m.name = name;
  m.qualifiedName = ns + "::" + name;
  m.typeId = fnv1a32(m.qualifiedName);
  m.kernel = name;
  m.kernelId = fnv1a32(name);
  m.size = size;
  m.alignment = m.naturalAlignment = alignment;
  m.location = {header, 5, 8};
  return m;
}

/// app::Color (enum class : uint8), app::Point {int32 x, y}, app::Shape {Color; pad; Point; double[2][3]}.
inline HeaderModel sampleHeader() {
  HeaderModel h;
  h.headerPath = "/src/app.h";
  h.includeSpelling = "app.h";
  h.stem = "app";
  h.targetTriple = "x86_64-unknown-linux-gnu";
  EnumModel color;
  color.qualifiedName = "app::Color";
  color.name = "Color";
  color.namespaces = {"app"};
  color.scoped = true;
  color.underlying = FieldKind::UInt8;
  color.enumerators = {{"red", "0", 0}, {"green", "1", 1}};
  h.enums.push_back(color);

  MessageModel point = message("app", "Point", 8, 4);
  point.fields = {scalarField("x", FieldKind::Int32, 0, 4), scalarField("y", FieldKind::Int32, 4, 4)};
  point.fields[1].initializer = "5";
  h.messages.push_back(point);

  MessageModel shape = message("app", "ShapeRequest", 64, 8);
  shape.kernel = "Shape";
  shape.kernelId = fnv1a32("Shape");
  shape.options.direction = Direction::Input;
  FieldModel c = scalarField("color", FieldKind::Enumeration, 0, 1);
  c.underlying = FieldKind::UInt8;
  c.typeName = "::app::Color";
  c.referencedType = "app::Color";
  FieldModel p = scalarField("origin", FieldKind::Message, 4, 8);
  p.alignment = p.naturalAlignment = 4;
  p.typeName = "::app::Point";
  p.referencedType = "app::Point";
  p.messageTypeId = point.typeId;
  FieldModel d = scalarField("matrix", FieldKind::Float64, 16, 48);
  d.elementSize = d.alignment = d.naturalAlignment = 8;
  d.extents = {2, 3};
  shape.fields = {c, p, d};
  h.messages.push_back(shape);
  return h;
}

}  // namespace ringkernel::gen::testing
