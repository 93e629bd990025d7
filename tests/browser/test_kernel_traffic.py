"""The kernel-traffic recorder that browser tests quote when a widget shows blank: it must read
the kernel websocket's frames in both of JupyterLab's forms, or a failure would say nothing."""

from __future__ import annotations

import json


def binary_frame(channel: str, header: dict, content: dict) -> bytes:
    """A frame in the ``v1.kernel.websocket.jupyter.org`` form: the number of offsets, the
    offsets (8 bytes each, little-endian), then channel, header, parent header, metadata and
    content, with no buffers."""
    parts = [channel, json.dumps(header), "{}", "{}", json.dumps(content)]
    encoded = [part.encode() for part in parts]
    count = len(encoded) + 1
    offsets, position = [], 8 * (count + 1)
    for part in encoded:
        offsets.append(position)
        position += len(part)
    offsets.append(position)
    head = count.to_bytes(8, "little") + b"".join(o.to_bytes(8, "little") for o in offsets)
    return head + b"".join(encoded)


def test_kernel_message_reads_json_and_binary_frames(lab_tools):
    header = {"msg_type": "comm_open", "msg_id": "1"}
    content = {"target_name": "jupyter.widget.control", "comm_id": "c"}
    as_text = json.dumps({"channel": "shell", "header": header, "content": content})
    for frame in (as_text, binary_frame("shell", header, content)):
        message = lab_tools.kernel_message(frame)
        assert message["channel"] == "shell"
        assert message["header"]["msg_type"] == "comm_open"
        assert message["content"]["target_name"] == "jupyter.widget.control"
    assert lab_tools.kernel_message(b"\x01") is None  # neither form: ignored, never raised


def test_traffic_names_the_widget_messages_and_leaves_out_the_rest(lab_tools):
    traffic = lab_tools.KernelTraffic()
    control = {"target_name": "jupyter.widget.control"}
    traffic._frame("sent", binary_frame("shell", {"msg_type": "comm_open"}, control))
    traffic._frame("got ", json.dumps({"header": {"msg_type": "comm_info_reply"}, "content": {}}))
    traffic._frame("got ", json.dumps({"header": {"msg_type": "stream"}, "content": {}}))
    lines = str(traffic).splitlines()
    assert [line.split("ms  ")[1] for line in lines] == [
        "sent comm_open jupyter.widget.control",
        "got  comm_info_reply",
    ]
