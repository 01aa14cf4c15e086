"""Placeholder command-line adapter; replaced by the family's real one."""


def sniff(text, path):
    return False


def add_generate_arguments(parser):
    pass


def generate(args):
    raise NotImplementedError
