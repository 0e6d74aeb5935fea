public enum MoyaKitPlaceholder {}
