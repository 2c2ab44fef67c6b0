/// Formats a coordinate without a trailing `.0` when it is a whole number (`100`, `2.5`, `-3`).
func geometryText(_ value: Double) -> String {
  if value.rounded() == value, abs(value) < 1e15 {
    return String(Int64(value))
  }
  return String(value)
}
