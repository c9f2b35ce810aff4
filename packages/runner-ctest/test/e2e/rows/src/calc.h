int mul(int a, int b);
