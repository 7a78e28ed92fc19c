"""Adapters to other libraries (LlamaIndex). Imported lazily: core use does not need them."""
