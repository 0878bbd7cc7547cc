# NumPy's own test modules, imported by test_mem_overlap.py, use this mark.
def pytest_configure(config):
    config.addinivalue_line("markers", "slow: NumPy's mark for slow tests")
