"""Measured quality: a generated labelled benchmark, golden realistic cases, and metrics."""
