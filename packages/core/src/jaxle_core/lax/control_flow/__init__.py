"""Structured control flow: conditionals, loops and scans whose bodies are jaxprs.

``jaxle_core.lax`` re-exports the public functions of each module here.
"""
