"""paddle.text.datasets.Movielens: the MovieLens 1M ratings, as paddle 2.6 reads its ml-1m.zip.

The zip holds three '::'-separated latin-1 files:
    ml-1m/movies.dat   MovieID::Title (Year)::Genre|Genre|...
    ml-1m/users.dat    UserID::Gender::Age::Occupation::Zip-code
    ml-1m/ratings.dat  UserID::MovieID::Rating::Timestamp
Each rating is one sample; it goes to the test split with probability test_ratio, drawn per line from numpy's
Mersenne Twister seeded with rand_seed (the same draws as paddle's np.random.seed(rand_seed); np.random.random()).
"""

from __future__ import annotations

import re
import zipfile

import numpy as np

from minipaddle.io.dataset import Dataset
from minipaddle.vision.datasets.download import dataset_file

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
MD5 = "c4d9eecfca2ab87c1945afe126590906"
age_table = [1, 18, 25, 35, 45, 50, 56]  # the age groups of users.dat; a user's age is its index here
_TITLE = re.compile(r"^(.*)\((\d+)\)$")


class MovieInfo:
    """A movie: its id, genres and title (without the year)."""

    def __init__(self, index, categories, title) -> None:
        self.index, self.categories, self.title = int(index), categories, title

    def value(self, categories_dict, movie_title_dict) -> list:
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]  # fmt: skip

    def __repr__(self) -> str:
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"


class UserInfo:
    """A user: id, gender, age group (index into age_table) and occupation id."""

    def __init__(self, index, gender, age, job_id) -> None:
        self.index, self.is_male = int(index), gender == "M"
        self.age, self.job_id = age_table.index(int(age)), int(job_id)

    def value(self) -> list:
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __repr__(self) -> str:
        gender = "M" if self.is_male else "F"
        return f"<UserInfo id({self.index}), gender({gender}), age({age_table[self.age]}), job({self.job_id})>"


class Movielens(Dataset):
    """MovieLens 1M. Item i is 8 int/float arrays: [user id], [gender: 0 male, 1 female], [age group], [job id],
    [movie id], [genre ids], [title word ids], [rating * 2 - 5].

    Args:
        data_file (str, optional): paddle's ml-1m.zip; None looks for it in the data home.
        mode (str, optional): 'train' or 'test'. Default 'train'.
        test_ratio (float, optional): the share of ratings in the test split. Default 0.1.
        rand_seed (int, optional): the seed of the split. Default 0.
        download (bool, optional): fetch the file when it is missing. Default True.

    paddle numbers genres and title words in the order of a Python set (which changes from one process to the
    next) and reseeds numpy's global generator; minipaddle numbers them in sorted order, so the ids are the same
    every run, and draws the split from its own generator, leaving numpy's global state alone.
    """

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0, download=True) -> None:
        if not isinstance(mode, str) or mode.lower() not in ("train", "test"):
            raise ValueError(f"Movielens: mode should be 'train', 'test', but got {mode!r}")
        self.mode = mode.lower()
        self.data_file = data_file or dataset_file(URL, MD5, "sentiment", download, "Movielens(data_file)")
        self.test_ratio, self.rand_seed = test_ratio, rand_seed
        self._load_meta_info()
        self._load_data()

    @staticmethod
    def _lines(package, name: str) -> list:
        with package.open(name) as f:
            return [line.decode(encoding="latin").strip() for line in f]

    def _load_meta_info(self) -> None:
        self.movie_info, self.user_info = {}, {}
        words, categories = set(), set()
        with zipfile.ZipFile(self.data_file) as package:
            for line in self._lines(package, "ml-1m/movies.dat"):
                movie_id, title, genres = line.split("::")
                genres = genres.split("|")
                title = _TITLE.match(title).group(1)
                self.movie_info[int(movie_id)] = MovieInfo(movie_id, genres, title)
                categories.update(genres)
                words.update(w.lower() for w in title.split())
            for line in self._lines(package, "ml-1m/users.dat"):
                uid, gender, age, job, _ = line.split("::")
                self.user_info[int(uid)] = UserInfo(uid, gender, age, job)
        self.movie_title_dict = {w: i for i, w in enumerate(sorted(words))}
        self.categories_dict = {c: i for i, c in enumerate(sorted(categories))}

    def _load_data(self) -> None:
        self.data, is_test = [], self.mode == "test"
        draws = np.random.RandomState(self.rand_seed)
        with zipfile.ZipFile(self.data_file) as package:
            for line in self._lines(package, "ml-1m/ratings.dat"):
                if (draws.random_sample() < self.test_ratio) == is_test:
                    uid, movie_id, rating, _ = line.split("::")
                    user, movie = self.user_info[int(uid)], self.movie_info[int(movie_id)]
                    value = movie.value(self.categories_dict, self.movie_title_dict)
                    self.data.append(user.value() + value + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self) -> int:
        return len(self.data)
