"""A scripted travel agent speaking toolscore's command protocol (standard library only).

toolscore writes one JSON line on stdin: {"id": ..., "input": ..., "attempt": ...}.
The agent prints the run's transcript on stdout as JSON: here, OpenAI chat messages.
"""
import json
import re
import sys

case = json.loads(sys.stdin.readline())
text = case["input"] if isinstance(case["input"], str) else json.dumps(case["input"])
date = (re.search(r"\d{4}-\d{2}-\d{2}", text) or [""])[0]
if "weather" in text.lower():
    city = re.search(r"in ([A-Z][a-z]+)", text).group(1)
    call = ("get_weather", {"city": city, "date": date}, {"forecast": "sunny"})
elif "flight" in text.lower():
    origin, destination = re.search(r"from (\w+) to (\w+)", text).groups()
    call = ("search_flights", {"from": origin, "to": destination, "date": date}, [])
else:
    order = re.search(r"\d+", text).group(0)
    call = ("refund_order", {"order_id": order}, {"refunded": True})
name, arguments, output = call
messages = [
    {"role": "user", "content": text},
    {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments)}}]},
    {"role": "tool", "tool_call_id": "c1", "content": json.dumps(output)},
    {"role": "assistant", "content": "Done."},
]
print(json.dumps(messages))
