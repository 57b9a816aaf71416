"""Token-id streams packed from Python lists and cleaned (``rapidbleu.ids``): the pure-Python
twin (``ids_py``) and the compiled one (``ids_cy``).  Imports nothing."""
