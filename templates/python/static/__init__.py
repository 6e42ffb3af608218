"""The modules every generated package gets as they are (`codegen.bindings.MODULES` lists them).

This file only makes the folder a package for the checkers (mypy resolves the modules' relative
imports through it); it is not copied into the generated packages.
"""
