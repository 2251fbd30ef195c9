"""Python objects changed in place inside Tensor if/while/for (container items, methods,
attributes, `x[i] = v`) become values of the cond/while op: results equal eager for both
branch directions; what cannot be carried raises an error naming the user's line."""
import numpy as np
import pytest

import sampan as paddle
from sampan.jit import to_static
from sampan.jit.operators.effects import MutationError

LOG = []
STATE = {"n": 0}


def t(values):
    return paddle.to_tensor(np.asarray(values, "float32"))


def _numpy(value):
    """Nested results as NumPy / Python values (dict key order kept)."""
    if isinstance(value, dict):
        return {k: _numpy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_numpy(v) for v in value)
    return value.numpy() if hasattr(value, "numpy") else value


def _assert_same(a, b):
    if isinstance(a, dict):
        assert list(a) == list(b)
        for k in a:
            _assert_same(a[k], b[k])
    elif isinstance(a, (list, tuple)):
        assert type(a) is type(b) and len(a) == len(b)
        for x, y in zip(a, b):
            _assert_same(x, y)
    else:
        np.testing.assert_allclose(np.asarray(b, "float64"), np.asarray(a, "float64"))


def agree(fn, *inputs):
    """fn eager and converted give the same results for each argument tuple."""
    static = to_static(fn)
    for args in inputs:
        _assert_same(_numpy(fn(*args)), _numpy(static(*args)))
    return static


POS, NEG = (t([1.0, 2.0]),), (t([-1.0, -2.0]),)


def dict_item(t):
    res = {}
    if t > 2:
        res["a"] = 2
    else:
        res["a"] = 3
    return res


def test_dict_item_written_in_both_branches_takes_the_taken_branch():
    static = to_static(dict_item)
    assert int(static(paddle.to_tensor(3))["a"]) == 2
    assert int(static(paddle.to_tensor(1))["a"]) == 3


def list_items(x):
    a = [x, x]
    if x.sum() > 0:
        a[0] = x + 1
    else:
        a[1] = x - 1
    return a


def list_methods(x):
    a, b = [x], [x, x + 1]
    if x.sum() > 0:
        a.append(x * 2)
        v = b.pop()
        b.insert(0, x * 3)
    else:
        a.extend([x * 4])
        v = b.pop(0)
        b.append(x * 5)
    return a, b, v


def dict_methods(x):
    d = {"a": x, "b": x}
    if x.sum() > 0:
        d.update(a=x + 1)
        d.setdefault("c", x * 2)
        del d["b"]
    else:
        d["c"] = x * 3
        d.pop("b")
    return d


def augmented(x):
    d, a = {"s": x}, [x]
    if x.sum() > 0:
        d["s"] += 1
        a[0] *= 2
    else:
        d["s"] -= 1
        a[0] *= 3
    return d["s"], a[0]


def nested_container(x):
    d = {"items": [x], "n": 0}
    if x.sum() > 0:
        d["items"].append(x + 1)
        d["n"] = 1
    else:
        d["items"].append(x - 1)
        d["n"] = 2
    return d


def setitem_on_tensor(x):
    y = x * 1
    z = y
    if x.sum() > 0:
        y[0] = 5.0
    else:
        y[1] = 7.0
    return y, z


def inplace_method(x):
    y = x * 1
    if x.sum() > 0:
        y.add_(x)
    return y


class Box:
    pass


def plain_object(x):
    box = Box()
    box.v = x
    if x.sum() > 0:
        box.v = x + 1
        box.w = x
    else:
        box.v = x - 1
        box.w = x * 2
    return box.v, box.w


def global_dict(x):
    if x.sum() > 0:
        STATE["n"] = 1
    else:
        STATE["n"] = 2
    return x + STATE["n"]


def closure_dict(x):
    acc = {"v": x}

    def inner(y):
        if y.sum() > 0:
            acc["v"] = acc["v"] + y
        else:
            acc["v"] = acc["v"] - y
        return acc["v"]
    return inner(x)


def loop_inside_if(x):
    d = {"s": x}
    if x.sum() > 0:
        i = paddle.zeros([], "int64")
        while i < 3:
            d["s"] = d["s"] + 1
            i += 1
    else:
        d["s"] = d["s"] * 10
    return d["s"]


def _store(d, key, value):
    d[key] = value


def changed_by_a_call(x):
    d = {}
    if x.sum() > 0:
        _store(d, "a", 2)
        _store(d, "t", x + 1)
    else:
        _store(d, "a", 3)
        _store(d, "t", x - 1)
    return x + d["a"], d["t"]


@pytest.mark.parametrize("fn", [changed_by_a_call, list_items, list_methods, dict_methods, augmented,
                                nested_container, setitem_on_tensor, inplace_method,
                                plain_object, global_dict, closure_dict, loop_inside_if])
def test_in_place_changes_in_a_tensor_if_match_eager(fn):
    agree(fn, POS, NEG, (t([3.0, -1.0]),))


def aliased(x):
    holder = {"v": x}
    alias = holder
    if x.sum() > 0:
        holder["v"] = x + 1
    else:
        holder["v"] = x - 1
    return alias["v"], alias is holder


def test_container_keeps_its_identity():
    agree(aliased, POS, NEG)


class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(2, 2)

    def forward(self, x):
        if x.sum() > 0:
            self.h = self.fc(x)
        else:
            self.h = x * 0
        self.acc = x
        i = paddle.zeros([], "int64")
        while i < 2:
            self.acc = self.acc + 1
            i += 1
        return self.h + self.acc


def test_attributes_of_self_in_tensor_if_and_while():
    paddle.seed(1)
    net = Net()
    static = to_static(net)
    for x in (t([1.0, 2.0]), t([-1.0, -2.0])):
        np.testing.assert_allclose(static(x).numpy(), Net.forward(net, x).numpy(), rtol=1e-6)


def dict_in_while(x):
    d = {"s": x, "k": 0}
    i = paddle.zeros([], "int64")
    while i < 3:
        d["s"] = d["s"] * 2
        d["k"] = d["k"] + 1
        i += 1
    return d


def list_item_in_for(x, n):
    a = [x, x]
    for i in range(n):
        a[1] = a[1] + a[0]
    return a


def object_in_for(x, n):
    box = Box()
    box.v = x
    for i in range(n):
        box.v = box.v * 2
    return box.v


def test_in_place_changes_in_tensor_loops_match_eager():
    agree(dict_in_while, POS, NEG)
    for n in (0, 1, 4):
        agree(list_item_in_for, POS + (paddle.to_tensor(n),))
        agree(object_in_for, NEG + (paddle.to_tensor(n),))
    static = to_static(list_item_in_for)
    for n in (0, 2, 5):  # one program, the count read at run time
        _assert_same(_numpy(list_item_in_for(POS[0], n)),
                     _numpy(static(POS[0], paddle.to_tensor(n))))
    assert len(static.program_cache) == 1


def append_under_if_in_loop(x, n):
    outs = []
    for i in range(n):
        if x.sum() > 0:
            outs.append(x + i)
        else:
            outs.append(x - i)
    return paddle.stack(outs)


def append_in_one_branch_in_loop(x, n):
    outs = [x]
    for i in range(n):
        if (x * i).sum() > 2:
            outs.append(x * i)
    return paddle.concat(outs)


@pytest.mark.parametrize("fn", [append_under_if_in_loop, append_in_one_branch_in_loop])
def test_appends_under_a_tensor_if_in_a_tensor_loop_fill_a_tensor_array(fn):
    static = to_static(fn)
    for x in (POS[0], NEG[0]):
        for n in (1, 3):
            np.testing.assert_allclose(static(x, paddle.to_tensor(n)).numpy(),
                                       fn(x, n).numpy())


def log_in_python_loop(x):
    for k in range(3):
        LOG.append(k)
        x = x + k
    return x


def test_global_list_appended_in_a_python_loop_is_not_a_loop_variable():
    LOG.clear()
    out = to_static(log_in_python_loop)(t([1.0]))
    np.testing.assert_allclose(out.numpy(), [4.0])
    assert LOG == [0, 1, 2]


def appended_in_one_branch(x):
    a = []
    if x.sum() > 0:
        a.append(x)
    return a


def cache_in_one_branch(x):
    cache = {"base": x}
    if x.sum() > 0:
        cache["extra"] = x * 2
        y = x + cache["extra"]
    else:
        y = x - 1
    return y, cache["base"]


def test_dict_key_set_in_one_branch_is_undefined_after_the_if():
    """The key exists after the if on both paths; its value is Undefined (reading it raises,
    as for a name bound in one branch), other keys and results are exact."""
    agree(cache_in_one_branch, POS, NEG)
    with pytest.raises(TypeError, match="is used but has no value") as info:
        to_static(key_added_in_one_branch)(POS[0])
    assert "d['a']" in str(info.value)


def log_in_tensor_loop(x, n):
    for i in range(n):
        LOG.append(1)
        x = x + 1
    return x


def key_added_in_one_branch(x):
    d = {}
    if x.sum() > 0:
        d["a"] = -x
    return x + d["a"]


@pytest.mark.parametrize("fn, args, line, message", [
    (appended_in_one_branch, POS, 2, "1 items in the true branch, 0 in the false branch"),
    (log_in_tensor_loop, (t([1.0]), paddle.to_tensor(3)), 1,
     "'LOG' is changed inside a loop whose condition is a Tensor"),
])
def test_changes_that_cannot_be_carried_name_the_user_line(fn, args, line, message):
    """`line`: the if/for statement's offset from the def line. Under full_graph=False the
    construct runs as Python instead, with eager's result and effects."""
    with pytest.raises(MutationError) as info:
        to_static(fn, full_graph=True)(*args)
    text = str(info.value)
    assert message in text
    assert f"test_control_flow_side_effects.py:{fn.__code__.co_firstlineno + line}" in text
    LOG.clear()
    eager, eager_log = fn(*args), list(LOG)
    LOG.clear()
    converted = to_static(fn)(*args)
    assert LOG == eager_log and type(converted) is type(eager)
    got, want = (converted, eager) if isinstance(eager, list) else ([converted], [eager])
    assert len(got) == len(want)
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_python_condition_keeps_plain_python_side_effects():
    @to_static
    def fn(x, flag):
        d = {"n": 0}
        if flag:
            d["n"] = 1
            LOG.append("taken")
        return x + d["n"]

    LOG.clear()
    np.testing.assert_allclose(fn(t([1.0]), True).numpy(), [2.0])
    assert LOG == ["taken"]


def returns_two_or_one(x):
    if x.sum() > 0:
        return x + 1, 1
    return x - 1


def returns_text_or_tensor(x):
    if x.sum() > 0:
        return "no tensor"
    return x - 1


@pytest.mark.parametrize("fn, what", [(returns_two_or_one, "number of return value"),
                                      (returns_text_or_tensor, "return type")])
def test_branches_returning_different_values_raise_paddles_exception(fn, what):
    from sampan.jit.operators.common import Dygraph2StaticException
    for x in (POS[0], NEG[0]):
        with pytest.raises(Dygraph2StaticException, match=f"Your if/else have different {what}"):
            to_static(fn)(x)


def number_becomes_tensor(x, n):
    s = 0
    box = Box()
    box.v = 1
    for i in range(n):
        s = s + x * i
        box.v = x.sum() * 0.5 + box.v
    return s, box.v


def tensor_becomes_number(x):
    y = x.sum()
    flag = paddle.to_tensor(False)
    while flag:
        y = 2
    return y


def test_loop_variables_starting_as_numbers_take_the_bodys_tensor_kind():
    for n in (0, 1, 3):
        out = to_static(number_becomes_tensor)(POS[0], paddle.to_tensor(n))
        want = number_becomes_tensor(POS[0], n)
        if n:  # with n == 0 eager keeps the Python numbers; static holds them as Tensors
            _assert_same(_numpy(want), _numpy(out))
        else:
            _assert_same((0, 1), _numpy(out))
    agree(tensor_becomes_number, POS)


def counters_collected(n):
    items = []
    for i in range(n):
        items.append(i)
    return items[0], paddle.stack(items)


def written_by_index_in_loop(n):
    res = paddle.zeros([4, 3])
    for i in range(n):
        res[i] = paddle.full([3], 1.0) * i
    return res


def test_tensor_loop_counters_collect_and_write_by_index():
    static = to_static(counters_collected)
    first, stacked = static(paddle.to_tensor(3))
    assert first.dtype == paddle.int64 and int(first) == 0
    np.testing.assert_array_equal(stacked.numpy(), [0, 1, 2])
    static = to_static(written_by_index_in_loop)
    for n in (0, 2, 4):
        np.testing.assert_allclose(static(paddle.to_tensor(n)).numpy(),
                                   written_by_index_in_loop(n).numpy())


def append_in_nested_loops(x, n, m):
    found = []
    for i in range(n):
        for j in range(m):
            found.append(x * (i + 1) + j)
    return paddle.stack(found)


@pytest.mark.parametrize("as_tensor", [False, True])
def test_list_appended_in_an_inner_loop_is_carried_by_the_outer_loop(as_tensor):
    static = to_static(append_in_nested_loops)
    for n, m in ((2, 3), (1, 1), (3, 2)):
        args = (paddle.to_tensor(n), paddle.to_tensor(m)) if as_tensor else (n, m)
        np.testing.assert_allclose(static(POS[0], *args).numpy(),
                                   append_in_nested_loops(POS[0], n, m).numpy())
