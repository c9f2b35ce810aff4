#pragma once

int twice(int value);
int halve(int value);
