"""Every primitive jaxle-core defines has an XLA lowering rule."""

import importlib
import pkgutil

import jaxle_core
from jaxle_core.core import Primitive
from jaxle_core.lax import parallel, refs
from jaxle_xla.lowering import lowering_rules

# Collectives over named axes need a device-mapped axis (pmap, a later issue): under vmap they become array
# operations (psum/pmax/pmin over positional axes, which are lowered), and staged with no bound axis name they
# raise NameError before lowering.
COLLECTIVES = {v for v in vars(parallel).values() if isinstance(v, Primitive)} - {
    parallel.psum_p, parallel.pmax_p, parallel.pmin_p, parallel.precv_p, parallel.psum_invariant_p, parallel.pvary_p,
    parallel.all_gather_invariant_p, parallel.all_gather_reduced_p, parallel.unreduced_reduce_scatter_p,
    parallel.preduced_p, parallel.unreduced_psum_p, parallel.reduced_vary_cast_p, parallel.vary_unreduced_cast_p}


def core_primitives() -> set[Primitive]:
    found = set()
    for info in pkgutil.walk_packages(jaxle_core.__path__, "jaxle_core."):
        module = importlib.import_module(info.name)
        found.update(v for v in vars(module).values() if isinstance(v, Primitive))
    return found


def test_every_core_primitive_has_a_lowering():
    primitives = core_primitives()
    assert len(primitives) > 120  # the walk really found core's primitives
    assert {p.name for p in COLLECTIVES} == {"all_gather", "reduce_scatter", "all_to_all", "ppermute", "axis_index",
                                            "pbroadcast", "ragged_all_to_all", "psend"}
    # The reference primitives never reach a backend: programs using references are discharged before lowering.
    missing = sorted(p.name for p in primitives - COLLECTIVES - refs.ref_primitives if p not in lowering_rules)
    assert missing == []
