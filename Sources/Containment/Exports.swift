// Geometry and the layout solver are a layer of their own, below the
// runtime (ContainmentGeometry): `import Containment` brings them too.
@_exported import ContainmentGeometry
