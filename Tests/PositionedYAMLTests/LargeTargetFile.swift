/// A target file of `count` cases, about 140 bytes each (well over the loader's thresholds for
/// parsing ahead from some 400 cases, and for giving pages back from some 7,500), then `extra`.
func largeTargetFile(cases count: Int, extra: String = "") -> String {
    var text = "api: big\nbaseURL: https://example.com\ncases:\n"
    for index in 0..<count {
        text +=
            "  item\(index):\n    path: /items/\(index)\n    headers: {X-N: \"\(index)\"}\n"
            + "    sample: {json: {id: \(index), name: \"Item \(index)\", tags: [a, b]}}\n"
    }
    return text + extra
}
