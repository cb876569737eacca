"""Training of the default model: corpus from the knowledge graphs, BPE tokenizer, MoE training."""
