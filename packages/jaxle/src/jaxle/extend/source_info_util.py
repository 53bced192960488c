"""``jax.extend.source_info_util``: where equations were staged (recorded only while a tool asks for it, such as
``jax.ad_checkpoint.print_saved_residuals``), and the paths never reported as the user's."""

from jaxle_core.source_info import SourceInfo, current, new_source_info, register_exclusion, summarize

__all__ = ["SourceInfo", "current", "new_source_info", "register_exclusion", "summarize"]
