int main() {
  int total = 0;
  return totl;
}
