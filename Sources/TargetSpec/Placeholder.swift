import MoyaKit
public enum TargetSpecPlaceholder {}
