"""A game in which two hidden things trade places: the no-leak and no-cheat tests compare it with the real one."""


def swapped(game, a, b):
    """A clone in which things ``a`` and ``b`` trade places; each place keeps its properties.

    Properties move through ``State.move_props`` so that a dict the clone
    still shares with ``game`` (they are copied on write) is never changed.
    """
    other = game.clone()
    st = other.state
    za, zb = st.where[a], st.where[b]
    ia, ib = st.zones[za].index(a), st.zones[zb].index(b)
    st.zones[za][ia], st.zones[zb][ib] = b, a
    st.where[a], st.where[b] = zb, za
    st.move_props({a: b, b: a})
    other.offered_cache = None
    return other
