extension ProgressBar {
    /// The progress line, at most `width - 1` columns (the last column would wrap on some
    /// terminals): the fields that fit, most needed first — the bytes, the percentage, the rate,
    /// the time left (or, without a total, the time spent), the direction — and a bar graphic in
    /// the room left. A total the transfer has outgrown (a Content-Length that lied) is dropped.
    static func line(
        completed: Int64, total: Int64?, rate: Double, elapsed: Double, isUpload: Bool, width: Int
    ) -> String {
        let room = max(1, width - 1)
        let total = total.flatMap { $0 > 0 && $0 >= completed ? $0 : nil }
        let fraction = total.map { min(1, max(0, Double(completed) / Double($0))) }
        var amount = byteCount(completed)
        if let total { amount += " / " + byteCount(total) }
        let percent = fraction.map { "\(Int($0 * 100))%" }
        let speed = byteCount(rate.isFinite ? Int64(min(max(rate, 0), 1e18)) : 0) + "/s"
        let time = total.map { "ETA " + timeLeft(remaining: $0 - completed, rate: rate) } ?? duration(elapsed)
        let direction = isUpload ? "up" : "down"

        // Fields by need, each kept only if it still fits; shown in reading order.
        var shown: Set<Int> = []
        let fields: [(order: Int, text: String?)] = [
            (2, amount), (0, percent), (3, speed), (4, time), (-1, direction)
        ]
        var length = 0
        for field in fields {
            guard let text = field.text else { continue }
            let added = text.count + (length == 0 ? 0 : 2)
            if length + added <= room || length == 0 {
                shown.insert(field.order)
                length += added
            }
        }
        var parts: [(order: Int, text: String)] = fields.compactMap { field in
            guard shown.contains(field.order), let text = field.text else { return nil }
            return (field.order, text)
        }
        let graphicWidth = min(30, room - length - 4)
        if let fraction, graphicWidth >= 5 {
            let filled = Int(fraction * Double(graphicWidth))
            let graphic =
                "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: graphicWidth - filled)
                + "]"
            parts.append((1, graphic))
        }
        let text = parts.sorted { $0.order < $1.order }.map(\.text).joined(separator: "  ")
        return text.count > room ? String(text.prefix(room)) : text
    }

    /// `bytes` in B, KiB, MiB, … with one decimal.
    static func byteCount(_ bytes: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
        var value = Double(max(0, bytes))
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        guard unit > 0 else { return "\(bytes) B" }
        let tenths = Int(value * 10)
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// The time left at `rate`: `m:ss`, `h:mm:ss`, `--:--` while nothing moves, `>99h` beyond.
    static func timeLeft(remaining: Int64, rate: Double) -> String {
        guard remaining > 0 else { return "0:00" }
        guard rate > 0, rate.isFinite else { return "--:--" }
        let seconds = Double(remaining) / rate
        guard seconds.isFinite, seconds < 100 * 3600 else { return ">99h" }
        return duration(seconds)
    }

    /// `seconds` as `m:ss` or `h:mm:ss`.
    static func duration(_ seconds: Double) -> String {
        let whole = seconds.isFinite ? Int(min(max(seconds, 0), 360_000).rounded()) : 0
        let (hours, minutes, rest) = (whole / 3600, whole / 60 % 60, whole % 60)
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
    }
}
