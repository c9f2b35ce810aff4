#pragma once

int clamp(int value, int low, int high);
int first_or_zero(const int* values, int count);
int steps_to_zero(int value);
