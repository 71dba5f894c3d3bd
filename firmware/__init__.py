"""The composition root: configuration, wiring, the command line and the simulator."""
