/// A value a link domain guards: reachable only with a ``LinkSection`` in
/// hand (`cell[held]`), that is, inside a ``TreeLock`` section. The one
/// implementation of a guarded cell: an object that keeps state under its
/// domain's lock stores it in a `Guarded` and conforms to
/// ``LinkGuardedState``, whose subscript adds the debug check that the
/// section holds *this* object's domain.
///
/// The owner's stored property carries `@exclusivity(unchecked)` in release
/// builds: the lock rules out overlapping accesses from two threads, and the
/// checked builds (every test, the debug stress harness) catch overlapping
/// accesses from one. Dynamic exclusivity checks cost a push+pop a tenth of
/// its time.
struct Guarded<Value> {
  private var value: Value

  /// A cell holding `value`.
  init(_ value: Value) {
    self.value = value
  }

  /// The value, inside a section.
  subscript(_ held: LinkSection) -> Value {
    _read { yield value }
    _modify { yield &value }
  }

  /// The value, for the owner's deinitializer only: nothing else can reach
  /// an object being released, so no lock is taken (and a `deinit` must
  /// not take one: the last reference may be dropped inside a section).
  var releasing: Value {
    _read { yield value }
    _modify { yield &value }
  }
}

/// An object whose state its link domain guards, in a ``Guarded`` cell.
protocol LinkGuardedState: LinkGuarded {
  associatedtype State
  /// The cell. Its value is reachable only through a ``LinkSection``.
  var guarded: Guarded<State> { get set }
}

extension LinkGuardedState {
  /// The guarded state, inside a section; debug builds check that the
  /// section holds the lock of this object's domain.
  subscript(_ held: LinkSection) -> State {
    _read {
      TreeLock.assertHeld(self)
      yield guarded[held]
    }
    _modify {
      TreeLock.assertHeld(self)
      yield &guarded[held]
    }
  }
}
