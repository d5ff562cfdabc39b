#pragma once
// Value axes that read as a person would draw them.

class QValueAxis;

namespace plimsoll {

// Sets `axis` from 0 past `most` in at most `maxSteps` steps of 1, 2 or 5 × 10^k, its labels
// with as many decimals as the step has and no more: 0, 200000, 400000 …, or 0, 0.5, 1 … —
// never ticks that print as 1, 1, 1, 0, 0 or fall between whole numbers. A `most` that is not
// a positive number gives 0 … 1.
void setNiceAxis(QValueAxis *axis, double most, int maxSteps = 6);

} // namespace plimsoll
