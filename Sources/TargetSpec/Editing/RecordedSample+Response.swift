import MoyaKit

extension RecordedSample {
    /// The response as received: its status, its headers in order, its body (as much as was kept).
    package init(_ response: Response) {
        var fields: [Field] = []
        for field in response.response?.headers ?? [:] {
            fields.append(Field(name: field.name.rawName, value: field.value))
        }
        self.init(status: response.statusCode, headers: fields, body: Array(response.data))
    }
}
